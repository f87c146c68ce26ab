import { ledgerKey, parametersHash } from './ledger-key';
import type { BatchSpec, ItemState } from '../../../shared/engine/model';

// Compaction (issue 34 #3): a finished batch's saved and skipped items leave the journal; what the rest of the app
// still needs of them stays.
//   - the done ledger (paid once): every saved photo's entry is there — the engine writes it in the save's own
//     transaction; compaction writes any that is missing (an entry a newer run replaced is left as it is) before the
//     item goes, so the next estimate still says "already done, 0 credits";
//   - claims: untouched (a claim of a removed owner still blocks a second payment: blocksSubmit never needs the row);
//   - reports: outcomes and executions stay, only the outcome's copy of the file list and its sentence are emptied
//     (reports read neither; the outbox consumers have all read past them: see below);
//   - the batch's counts (saved, skipped, paid elsewhere, progress) in batches.compacted_json, which the journal's
//     count reads add to the rows left, so the batch still says "24,000 saved";
//   - chain links (by file path) and balance evidence (executions): untouched.
// Only a batch whose every item is saved or skipped is compacted. A batch with an item that may still move — failed,
// unknown, charged without a result, cancelled — is left whole: "Retry failed", resubmit and Continue name that item's
// result against the batch's other items (their originals and results are never written over: BatchOriginals,
// output-plan), so removing those items would let a retry, under the "overwrite" policy, write over a sibling's
// original or paid result. A batch with a photo rejected in Review stays whole too: "Re-run rejected" reads the
// rejected items' rows. What is lost: the per-photo list of the removed items (Review) and exporting them again
// without paying (export-again needs each paid result's execution); the CLI says so.

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** States whose items compaction removes. */
const REMOVED: readonly ItemState[] = ['saved', 'skipped'];
const REMOVED_SQL = `state IN ('saved', 'skipped')`;
/** An item in any other state keeps its batch whole: it may still run, and its name depends on its siblings. */
const NOT_REMOVED_SQL = `state NOT IN ('saved', 'skipped')`;

/** What a compacted batch keeps of its removed items (batches.compacted_json). */
export interface CompactedCounts {
  /** Removed items per state. */
  counts: Partial<Record<ItemState, number>>;
  /** Their progress per state (0–100 each), for the progress sums. */
  progress: Partial<Record<ItemState, number>>;
  /** Of them, photos another batch paid for (engine/projection.ts isPaidElsewhere). */
  paidElsewhere: number;
  /** When it was (last) compacted. */
  at: string;
}

export function parseCompacted(json: unknown): CompactedCounts | null {
  if (typeof json !== 'string' || json === '') return null;
  return JSON.parse(json) as CompactedCounts;
}

/** What compaction removed of a batch (null: nothing). */
export function compactedOf(stmt: (sql: string) => Pick<Stmt, 'get'>, batchId: string): CompactedCounts | null {
  const row = stmt(`SELECT compacted_json FROM batches WHERE id = ?`).get(batchId) as Row | undefined;
  return parseCompacted(row?.compacted_json);
}

export interface CompactOptions {
  /** Batches whose last change is before this instant (ISO) and that are finished. */
  finishedBefore: string;
  /** Says what it would do, changes nothing. */
  dryRun?: boolean;
  /** Gives the freed pages back to the file system (VACUUM): the file only shrinks with it. Default true. */
  vacuum?: boolean;
}

export interface CompactResult {
  batchIds: string[];
  itemsRemoved: number;
  /** journal.db + its WAL before and after, in bytes (after = before on a dry run). */
  bytesBefore: number;
  bytesAfter: number;
}

export interface CompactionDeps {
  stmt: (sql: string) => Stmt;
  /** Runs `work` in one immediate transaction. */
  transaction: <T>(work: () => T) => T;
  exec: (sql: string) => void;
  bytes: () => number;
  now: () => string;
}

export function compactJournal(deps: CompactionDeps, options: CompactOptions): CompactResult {
  const { stmt } = deps;
  const bytesBefore = deps.bytes();
  const candidates = (stmt(`SELECT id, spec_json, compacted_json FROM batches b WHERE state IN ('completed', 'cancelled') AND updated_at < ?
    AND EXISTS (SELECT 1 FROM items i WHERE i.batch_id = b.id AND i.${REMOVED_SQL})
    AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_id = b.id AND i.${NOT_REMOVED_SQL})
    AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_id = b.id AND i.verdict = 'rejected')
    ORDER BY created_at, rowid`).all(options.finishedBefore) as Row[]);
  // Every outbox consumer must have read past a batch's outcomes: one still behind would meet an outcome whose item
  // is gone. (A consumer seen for the first time starts after the last outcome.)
  const cursor = stmt(`SELECT MIN(seq) AS seq FROM outcome_cursors`).get() as Row;
  const readUpTo = cursor.seq === null || cursor.seq === undefined ? Number.MAX_SAFE_INTEGER : Number(cursor.seq);
  const batchIds: string[] = [];
  let itemsRemoved = 0;
  for (const row of candidates) {
    const batchId = String(row.id);
    const last = Number((stmt(`SELECT COALESCE(MAX(seq), 0) AS seq FROM outcomes WHERE batch_id = ?`).get(batchId) as Row).seq);
    if (last > readUpTo) continue;
    const count = Number((stmt(`SELECT COUNT(*) AS n FROM items WHERE batch_id = ? AND ${REMOVED_SQL}`).get(batchId) as Row).n);
    batchIds.push(batchId);
    itemsRemoved += count;
    if (options.dryRun) continue;
    deps.transaction(() => compactBatch(deps, batchId, JSON.parse(String(row.spec_json)) as BatchSpec, parseCompacted(row.compacted_json)));
  }
  if (!options.dryRun && batchIds.length > 0 && options.vacuum !== false) {
    // Deleted rows leave free pages inside the file; VACUUM rewrites it without them (through the WAL, which the
    // checkpoint then empties: journal_size_limit truncates it).
    deps.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    deps.exec('VACUUM');
    deps.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
  return { batchIds, itemsRemoved, bytesBefore, bytesAfter: options.dryRun ? bytesBefore : deps.bytes() };
}

function compactBatch(deps: CompactionDeps, batchId: string, spec: BatchSpec, before: CompactedCounts | null): void {
  const { stmt } = deps;
  // The done ledger first: a saved photo it does not know would be paid for again by the next batch of it. An export
  // batch's photos are its source batch's (that one's entries count); a newer entry of the same photo stays.
  if (!spec.exportOf) {
    const ph = parametersHash(spec.parameters);
    const hotFolderId = spec.source.kind === 'hotFolder' ? spec.source.hotFolderId ?? null : null;
    const saved = stmt(`SELECT id, content_hash, sources_json, outputs_json, execution_id, completed_at, updated_at FROM items
      WHERE batch_id = ? AND state = 'saved' AND content_hash IS NOT NULL`).all(batchId) as Row[];
    for (const item of saved) {
      const contentHash = String(item.content_hash);
      const sources = JSON.parse(String(item.sources_json)) as Record<string, string>;
      stmt(`INSERT INTO ledger (key, content_hash, workflow_id, parameters_hash, source_path, outcome, outputs_json, execution_id, item_id,
        hot_folder_id, recorded_at, recipe_fingerprint) VALUES (?, ?, ?, ?, ?, 'saved', ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING`)
        .run(ledgerKey(contentHash, spec.workflowId, ph), contentHash, spec.workflowId, ph, Object.values(sources)[0] ?? '',
          String(item.outputs_json ?? '[]'), item.execution_id ?? null, String(item.id), hotFolderId,
          String(item.completed_at ?? item.updated_at), spec.recipe?.fingerprint ?? null);
    }
  }
  const kept: CompactedCounts = before ?? { counts: {}, progress: {}, paidElsewhere: 0, at: '' };
  for (const r of stmt(`SELECT state, COUNT(*) AS n, COALESCE(SUM(progress), 0) AS p FROM items WHERE batch_id = ? AND ${REMOVED_SQL}
    GROUP BY state`).all(batchId) as Row[]) {
    const state = String(r.state) as ItemState;
    kept.counts[state] = (kept.counts[state] ?? 0) + Number(r.n);
    kept.progress[state] = (kept.progress[state] ?? 0) + Number(r.p);
  }
  // The same test as journal/claims.ts countPaidElsewhere, over the rows about to go.
  kept.paidElsewhere += Number((stmt(`SELECT COUNT(*) AS n FROM items WHERE batch_id = ? AND ${REMOVED_SQL} AND claim_key IS NOT NULL
    AND state <> 'skipped' AND credits_charged = 0 AND (state = 'following' OR (attempts = 0 AND execution_id IS NOT NULL))`).get(batchId) as Row).n);
  kept.at = deps.now();
  // Reports read the outcome's state, credits, attempt and time; its file list and sentence were for the consumers.
  stmt(`UPDATE outcomes SET outputs_json = '[]', reason = NULL WHERE batch_id = ? AND item_id IN
    (SELECT id FROM items WHERE batch_id = ? AND ${REMOVED_SQL})`).run(batchId, batchId);
  stmt(`DELETE FROM items WHERE batch_id = ? AND ${REMOVED_SQL}`).run(batchId);
  stmt(`UPDATE batches SET compacted_json = ? WHERE id = ?`).run(JSON.stringify(kept), batchId);
}

/** `partial` plus what compaction removed of the batch (the states asked for only). */
export function withCompacted(partial: Partial<Record<ItemState, number>>, compacted: CompactedCounts | null): Partial<Record<ItemState, number>> {
  if (!compacted) return partial;
  const out = { ...partial };
  for (const state of REMOVED) {
    const n = compacted.counts[state];
    if (n) out[state] = (out[state] ?? 0) + n;
  }
  return out;
}
