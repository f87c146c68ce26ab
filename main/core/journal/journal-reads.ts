import type { ItemState } from '../../../shared/engine/model';
import type { Journal } from './journal-api';
import { mapBatch, mapExecution, mapItem, mapLedger, BATCH_COLUMNS, ITEM_COLUMNS } from './rows';
import { movingOnly, termFor } from './settled';
import { compactedOf, withCompacted } from './compact';

// The journal's reads (journal.ts composes them with its writes): batches, items, executions and the done ledger.

type Row = Record<string, unknown>;
interface Stmt {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** `?, ?, ?` for an IN list of `states`. */
export const placeholdersFor = (states: readonly ItemState[]): string => states.map(() => '?').join(', ');

export type JournalReads = Pick<Journal, 'getBatch' | 'listBatches' | 'batchIdsInState' | 'getItem' | 'listItems' | 'itemsPage' | 'itemsInStates'
  | 'countByState' | 'progressSum' | 'listExecutions' | 'ledgerHas' | 'ledgerGet' | 'ledgerCountByRecipe'>;

export function createJournalReads(stmt: (sql: string) => Stmt): JournalReads {
  return {
    getBatch: (id) => {
      const row = stmt(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = ?`).get(id) as Row | undefined;
      return row ? mapBatch(row) : null;
    },
    listBatches: () => (stmt(`SELECT ${BATCH_COLUMNS} FROM batches ORDER BY created_at, rowid`).all() as Row[]).map(mapBatch),
    batchIdsInState: (state) => (stmt(`SELECT id FROM batches WHERE state = ? ORDER BY priority DESC, queue_order, created_at, rowid`).all(state) as Row[]).map((r) => String(r.id)),
    getItem: (id) => {
      const row = stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ?`).get(id) as Row | undefined;
      return row ? mapItem(row) : null;
    },
    listItems: ({ batchId, offset = 0, limit = 500, states }) => {
      const filtered = states !== undefined && states.length > 0;
      // Each state's page is a range of one index (items_open or items_settled: the term names it), and how many
      // match is the sum of the batch's counters (migration 15), not a count over its items.
      const filter = filtered ? ` AND state IN (${placeholdersFor(states)})${termFor(states)}` : '';
      const args = [batchId, ...(states ?? [])];
      const total = Number((stmt(`SELECT COALESCE(SUM(n), 0) AS n FROM batch_counts WHERE batch_id = ?${filtered ? ` AND state IN (${placeholdersFor(states)})` : ''}`)
        .get(...args) as Row).n);
      const rows = stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE batch_id = ?${filter} ORDER BY position, rowid LIMIT ? OFFSET ?`)
        .all(...args, limit, offset) as Row[];
      return { total, items: rows.map(mapItem) };
    },
    itemsPage: (batchId, after, limit) => {
      // Keyset paging on the index's own order (items_by_batch: position, then rowid): each page starts where the last
      // ended, so reading a 100k-item batch is one pass, not a count and a skip over everything read before.
      const rows = (after
        ? stmt(`SELECT rowid AS row_id, ${ITEM_COLUMNS} FROM items WHERE batch_id = ? AND (position, rowid) > (?, ?) ORDER BY position, rowid LIMIT ?`)
          .all(batchId, after.position, after.rowid, limit)
        : stmt(`SELECT rowid AS row_id, ${ITEM_COLUMNS} FROM items WHERE batch_id = ? ORDER BY position, rowid LIMIT ?`).all(batchId, limit)) as Row[];
      const last = rows[rows.length - 1];
      return { items: rows.map(mapItem), next: last && rows.length === limit ? { position: Number(last.position), rowid: Number(last.row_id) } : null };
    },
    itemsInStates: (batchId, states, limit = -1) => {
      const byBatch = batchId === null ? '' : 'batch_id = ? AND ';
      const args = batchId === null ? [...states] : [batchId, ...states];
      return (stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE ${byBatch}state IN (${placeholdersFor(states)})${movingOnly(states)} ORDER BY position, rowid LIMIT ?`)
        .all(...args, limit) as Row[]).map(mapItem);
    },
    countByState: (batchId) => {
      // The counters the triggers keep (migration 15): a few rows, whatever the batch's size.
      const rows = stmt(`SELECT state, n FROM batch_counts WHERE batch_id = ? AND n > 0`).all(batchId) as Row[];
      const out: Partial<Record<ItemState, number>> = {};
      for (const row of rows) out[row.state as ItemState] = Number(row.n);
      // A compacted batch's removed items (journal/compact.ts) still count.
      return withCompacted(out, compactedOf(stmt, batchId));
    },
    progressSum: (batchId, states) => {
      const row = stmt(`SELECT COALESCE(SUM(progress), 0) AS p FROM items WHERE batch_id = ? AND state IN (${placeholdersFor(states)})${termFor(states)}`)
        .get(batchId, ...states) as Row;
      const compacted = compactedOf(stmt, batchId);
      return Number(row.p) + (compacted ? states.reduce((sum, s) => sum + (compacted.progress[s] ?? 0), 0) : 0);
    },
    listExecutions: (batchId) => {
      const cols = 'id, item_id, batch_id, created_at, status, credits, error, completed_at';
      const rows = batchId
        ? stmt(`SELECT ${cols} FROM executions WHERE batch_id = ? ORDER BY created_at`).all(batchId)
        : stmt(`SELECT ${cols} FROM executions ORDER BY created_at`).all();
      return (rows as Row[]).map(mapExecution);
    },
    ledgerHas: (key) => stmt(`SELECT 1 AS hit FROM ledger WHERE key = ?`).get(key) !== undefined,
    ledgerGet: (key) => {
      const row = stmt(`SELECT key, content_hash, workflow_id, parameters_hash, source_path, outcome, outputs_json, execution_id, item_id,
        hot_folder_id, recorded_at FROM ledger WHERE key = ?`).get(key) as Row | undefined;
      return row ? mapLedger(row) : null;
    },
    ledgerCountByRecipe: (fingerprint) =>
      (stmt(`SELECT COUNT(*) AS n FROM ledger WHERE recipe_fingerprint = ? AND outcome = 'saved'`).get(fingerprint) as { n: number }).n,
  };
}
