import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import type { ItemState } from '../../../shared/engine/model';
import { migrate } from './migrate';
import { ensureStateDir, restrictToOwner, OWNER_ONLY_FILE_MODE } from '../settings/state-dir';
import { ITEM_PATCH_COLUMNS } from './rows';
import { createJournalReads, placeholdersFor } from './journal-reads';
import { inGroup, ITEM_TRANSITIONS, statesAllowing, type ItemEvent } from '../../../shared/engine/item-states';
import { createOutbox } from './outbox';
import { refusingAfterClose } from './closed';
import { createEvidenceStore } from './evidence-store';
import { createClaimStore } from './claims';
import { createReportReads } from './report-reads';
import { createBatchOrder } from './batch-order';
import { createChainLinks } from './chain-links';
import { compactJournal } from './compact';
import { createDurableSync, datasyncFile } from './durable-sync';
import { parkingIllegalMoves, transitionChecker, type TransitionPolicy } from './transitions';
import type { BatchRecord, ItemChange, LedgerEntry, NewItem } from './types';

type Db = InstanceType<typeof Database>;
type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

import type { ItemWriteOptions, Journal } from './journal-api';
import { traceStart } from '../start-trace';

export type { Journal, ListItemsQuery } from './journal-api';

/**
 * Opens (creating if needed) the journal at `<stateDir>/journal.db`. WAL lets readers (event projections) run beside
 * the writer. Commits are synchronous=NORMAL (safe against a killed process, ~0.05 ms). The few that money depends
 * on — `submitting` before the POST, the execution id after it, the chosen final name of a result — must also
 * survive a power cut before the engine acts on them: the engine awaits whenDurable() (durable-sync.ts, one fdatasync
 * off this thread shared by every caller waiting), other callers may still ask for `durable` (synchronous=FULL, the
 * fsync on this thread: 7 ms on a quiet SSD, 30–250 ms on a loaded disk, three times a photo, the event loop stopped).
 */
export function openJournal(stateDir: string, options: { transitions?: TransitionPolicy } = {}): Journal {
  traceStart('journal-opening');
  ensureStateDir(stateDir);
  const path = join(stateDir, 'journal.db');
  // Created owner-only before SQLite opens it: SQLite gives -wal and -shm the database file's mode. Files an older
  // version left 0644 are narrowed here and once more after WAL mode exists.
  closeSync(openSync(path, 'a', OWNER_ONLY_FILE_MODE));
  const sidecars = [path, `${path}-wal`, `${path}-shm`];
  restrictToOwner(sidecars);
  const db: Db = new Database(path);
  // busy_timeout first: switching a fresh file to WAL takes a lock, and two processes opening it at once
  // (the app and a CLI command) must wait for each other rather than fail with "database is locked".
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  // After a checkpoint the WAL file is cut back to this: without it, it keeps the size of its largest moment (a
  // compaction's VACUUM writes the whole database through it) on disk for good.
  db.exec('PRAGMA journal_size_limit = 4194304');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  restrictToOwner(sidecars);
  traceStart('journal-migrated');

  const now = () => new Date().toISOString();
  const checkTransition = transitionChecker();
  const stmt = (() => {
    const cache = new Map<string, Stmt>();
    return (sql: string): Stmt => {
      let s = cache.get(sql);
      if (!s) { s = db.prepare(sql) as unknown as Stmt; cache.set(sql, s); }
      return s;
    };
  })();

  // The WAL must exist while this connection is open in WAL mode; after a refused fsync only a completed
  // TRUNCATE checkpoint (every frame in the synced database file, the WAL cut) lets whenDurable() vouch again.
  const walMode = String((db.prepare('PRAGMA journal_mode').get() as Row | undefined)?.journal_mode).toLowerCase() === 'wal';
  const durableSync = createDurableSync(path, datasyncFile, {
    walExpected: () => walMode && !closed,
    checkpoint: () => !closed && (db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as Row | undefined)?.busy === 0,
  });
  const outbox = createOutbox(stmt, now);
  const reads = createJournalReads(stmt);
  const claims = createClaimStore(stmt, now);

  const insertBatch = db.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state,
    paused_reason, created_at, updated_at, credits_spent, budget, output_folder, priority, queue_order)
    VALUES (@id, @spec, @workflowId, @workflowName, @workflow, @creditCost, @state, @pausedReason, @createdAt, @updatedAt, @creditsSpent, @budget, @outputFolder,
      @priority, (SELECT COALESCE(MAX(queue_order), 0) + 1 FROM batches))`);
  const insertItem = db.prepare(`INSERT INTO items (id, batch_id, position, display_name, sources_json, rel_dir, content_hash, state, reason, updated_at, claim_key, pay_again_over)
    VALUES (@id, @batchId, @position, @displayName, @sources, @relDir, @contentHash, @state, @reason, @updatedAt, @claimKey, @payAgainOver)`);

  const createBatch = db.transaction((batch: BatchRecord, items: readonly NewItem[], within?: () => void) => {
    insertBatch.run({
      id: batch.id, spec: JSON.stringify(batch.spec), workflowId: batch.workflow.id, workflowName: batch.workflow.name,
      workflow: JSON.stringify(batch.workflow), creditCost: batch.creditCost, state: batch.state, pausedReason: batch.pausedReason,
      createdAt: batch.createdAt, updatedAt: batch.updatedAt, creditsSpent: batch.creditsSpent, budget: batch.budget,
      outputFolder: batch.outputFolder, priority: batch.spec.priority ?? 0,
    });
    const at = now();
    for (const item of items) {
      insertItem.run({
        id: item.id, batchId: batch.id, position: item.position, displayName: item.displayName,
        sources: JSON.stringify(item.sources), relDir: item.relDir, contentHash: item.contentHash, state: item.state,
        reason: item.reason, updatedAt: at, claimKey: item.claimKey ?? null, payAgainOver: item.payAgainOver ?? null,
      });
      // An item settled at planning (a duplicate, an unreadable file) has its one outcome now.
      if (inGroup('terminal', item.state)) outbox.record(item.id);
    }
    within?.();
  });


  const durably = <T>(work: () => T): T => {
    db.exec('PRAGMA synchronous = FULL');
    try {
      return work();
    } finally {
      db.exec('PRAGMA synchronous = NORMAL');
    }
  };

  /** The state `event` moves the item to (checked against the table), and whether that ends an attempt. */
  const moveOf = (id: string, event: ItemEvent): { to: ItemState; ends: boolean } => {
    const row = stmt(`SELECT state FROM items WHERE id = ?`).get(id) as Row | undefined;
    if (!row) throw new Error(`unknown item ${id}`);
    const from = String(row.state) as ItemState;
    const to = checkTransition(id, from, event);
    return { to, ends: !inGroup('terminal', from) && inGroup('terminal', to) };
  };
  const stateAfter = (id: string, event: ItemEvent): ItemState => moveOf(id, event).to;

  /** Writes a change; returns whether it ended an attempt (its outcome is then in the outbox, same transaction). */
  const applyChange = (id: string, change: ItemChange): boolean => {
    const sets: string[] = [];
    const values: unknown[] = [];
    const { event, ...given } = change;
    const move = event === undefined ? null : moveOf(id, event);
    const patch = event && ITEM_TRANSITIONS[event].clearsReason && given.reason === undefined ? { ...given, reason: null } : given;
    // The item's claim moves with it, first: a submit of a unit another item holds open throws here (ClaimHeldError)
    // and the caller's transaction rolls back with nothing written.
    if (move && event) claims.onItemEvent(id, event, patch);
    if (move) {
      // A legal move takes the item out of a parking (journal/transitions.ts) a refused one put it in.
      sets.push('state = ?', 'attention = NULL');
      values.push(move.to);
    }
    for (const [key, value] of Object.entries(patch)) {
      const column = ITEM_PATCH_COLUMNS[key as keyof typeof patch];
      if (!column || value === undefined) continue;
      sets.push(`${column.name} = ?`);
      values.push(column.encode ? column.encode(value) : value);
    }
    if (sets.length === 0) return false;
    sets.push('updated_at = ?');
    values.push(now(), id);
    stmt(`UPDATE items SET ${sets.join(', ')} WHERE id = ?`).run(...values);
    if (move?.ends) outbox.record(id);
    return move?.ends ?? false;
  };
  const applyWithLedger = (id: string, change: ItemChange, ledger: LedgerEntry | undefined): boolean => {
    const ended = applyChange(id, change);
    if (ledger) recordLedger(ledger);
    return ended;
  };
  const applyAtomically = db.transaction(applyWithLedger);

  const updateItem = (id: string, change: ItemChange, options: ItemWriteOptions = {}) => {
    const { durable, ledger } = options;
    if (durable) { durably(() => updateItem(id, change, { ledger })); return; }
    if (db.inTransaction) { applyWithLedger(id, change, ledger); return; }
    const ended = change.event === undefined && !ledger ? applyChange(id, change) : applyAtomically.immediate(id, change, ledger);
    if (ended) outbox.notify();
  };

  const recordAccepted = db.transaction((itemId: string, executionId: string, credits: number, at: string, event: 'accept' | 'adopt') => {
    const item = stmt(`SELECT batch_id FROM items WHERE id = ?`).get(itemId) as Row | undefined;
    if (!item) throw new Error(`unknown item ${itemId}`);
    claims.onItemEvent(itemId, event, { executionId, credits });
    stmt(`UPDATE items SET state = ?, execution_id = ?, credits_charged = ?, progress = 0, submitted_at = ?, reason = NULL, updated_at = ? WHERE id = ?`)
      .run(stateAfter(itemId, event), executionId, credits, at, at, itemId);
    stmt(`INSERT INTO executions (id, item_id, batch_id, created_at, status, credits) VALUES (?, ?, ?, ?, 'queued', ?)`)
      .run(executionId, itemId, item.batch_id, at, credits);
    stmt(`UPDATE batches SET credits_spent = credits_spent + ?, updated_at = ? WHERE id = ?`).run(credits, at, item.batch_id);
  });

  const recordRefund = db.transaction((itemId: string, reason: string, at: string) => {
    const item = stmt(`SELECT batch_id, credits_charged FROM items WHERE id = ?`).get(itemId) as Row | undefined;
    if (!item) return;
    const credits = Number(item.credits_charged ?? 0);
    claims.onItemEvent(itemId, 'execution-failed', {});
    stmt(`UPDATE items SET state = ?, credits_charged = 0, reason = ?, completed_at = ?, updated_at = ? WHERE id = ?`)
      .run(stateAfter(itemId, 'execution-failed'), reason, at, at, itemId);
    stmt(`UPDATE batches SET credits_spent = MAX(0, credits_spent - ?), updated_at = ? WHERE id = ?`).run(credits, at, item.batch_id);
    outbox.record(itemId);
  });

  const transitionAll = db.transaction((batchId: string, event: ItemEvent, patch: Omit<ItemChange, 'event'>) => {
    const from = statesAllowing(event);
    const ids = (stmt(`SELECT id FROM items WHERE batch_id = ? AND state IN (${placeholdersFor(from)})`).all(batchId, ...from) as Row[])
      .map((r) => String(r.id));
    for (const id of ids) applyChange(id, { ...patch, event });
    return ids;
  });

  const setPositions = db.transaction((batchId: string, orderedIds: readonly string[]) => {
    orderedIds.forEach((id, index) => {
      stmt(`UPDATE items SET position = ? WHERE id = ? AND batch_id = ?`).run(index, id, batchId);
    });
  });

  const evidence = createEvidenceStore({ stmt, transaction: (work) => db.transaction(work).immediate(), applyChange, now });

  let closed = false;
  // After close() every use is a JS error (JournalClosedError), never a libsql call: a write there panics in Rust.
  const api: Journal = {
    path,
    createBatch: (batch, items, within) => { createBatch(batch, items, within); outbox.notify(); },
    ...reads,
    updateBatch: (id, patch) => {
      if (patch.state !== undefined) stmt(`UPDATE batches SET state = ?, updated_at = ? WHERE id = ?`).run(patch.state, now(), id);
      if (patch.pausedReason !== undefined) stmt(`UPDATE batches SET paused_reason = ?, updated_at = ? WHERE id = ?`).run(patch.pausedReason, now(), id);
      if (patch.pauseCode !== undefined) stmt(`UPDATE batches SET pause_code = ?, updated_at = ? WHERE id = ?`).run(patch.pauseCode, now(), id);
    },
    updateItem,
    recordAccepted: (itemId, executionId, credits, at, event = 'accept', { sync = 'now' } = {}) => {
      if (sync === 'deferred') recordAccepted.immediate(itemId, executionId, credits, at, event); // the caller awaits whenDurable()
      else durably(() => recordAccepted.immediate(itemId, executionId, credits, at, event));
    },
    whenDurable: durableSync.whenDurable,
    recordRefund: (itemId, reason, at) => { recordRefund.immediate(itemId, reason, at); outbox.notify(); },
    updateExecution: (id, patch) => {
      stmt(`UPDATE executions SET status = ?, error = COALESCE(?, error), completed_at = COALESCE(?, completed_at) WHERE id = ?`)
        .run(patch.status, patch.error ?? null, patch.completedAt ?? null, id);
    },
    transitionAll: (batchId, event, patch = {}) => {
      const ids = transitionAll.immediate(batchId, event, patch) as string[];
      if (ids.length > 0 && inGroup('terminal', ITEM_TRANSITIONS[event].to)) outbox.notify();
      return ids;
    },
    outcomesAfter: outbox.outcomesAfter,
    lastOutcomeSeq: outbox.lastOutcomeSeq,
    outcomeCursor: outbox.outcomeCursor,
    saveOutcomeCursor: outbox.saveOutcomeCursor,
    onOutcome: outbox.onOutcome,
    setPositions: (batchId, orderedIds) => { setPositions(batchId, orderedIds); },
    claimGet: claims.claimGet,
    claimHolder: claims.claimHolder,
    claimsVersion: claims.claimsVersion,
    countPaidElsewhere: claims.countPaidElsewhere,
    takeMovedClaims: claims.takeMovedClaims,
    followersOf: claims.followersOf,
    followersToLookAt: claims.followersToLookAt,
    ledgerRecord: (entry) => { recordLedger(entry); },
    ...evidence,
    ...createReportReads(stmt),
    ...createBatchOrder(stmt, (work) => db.transaction(work).immediate(), now),
    ...createChainLinks(stmt, now),
    compact: (compactOptions) => compactJournal({
      stmt, now, transaction: (work) => db.transaction(work).immediate(), exec: (sql) => { db.exec(sql); },
      bytes: () => sidecars.slice(0, 2).reduce((sum, p) => sum + (existsSync(p) ? statSync(p).size : 0), 0),
    }, compactOptions),
    close: () => {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
  // A refused state move parks its item (attention, logged at error) and rethrows: the writer's task stops there.
  const parking = parkingIllegalMoves(api, ['updateItem', 'recordAccepted', 'recordRefund', 'transitionAll', 'settleLost'], {
    park: (id, attention) => { stmt(`UPDATE items SET attention = ?, updated_at = ? WHERE id = ?`).run(attention, now(), id); },
    inTransaction: () => db.inTransaction,
    ...(options.transitions ? { policy: options.transitions } : {}),
  });
  // whenDurable may be awaited after close(): it syncs the files, never SQLite, and what was committed is still owed.
  return refusingAfterClose<Journal>(parking, () => closed, ['close', 'onOutcome', 'whenDurable']);
  /** Upserts a done-ledger entry (inside the caller's transaction when there is one). */
  function recordLedger(entry: LedgerEntry): void {
    // A later record that names no recipe (a hot folder's own outcome of the engine's item) keeps the one recorded.
    stmt(`INSERT INTO ledger (key, content_hash, workflow_id, parameters_hash, source_path, outcome, outputs_json, execution_id, item_id,
      hot_folder_id, recorded_at, recipe_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET source_path = excluded.source_path, outcome = excluded.outcome, outputs_json = excluded.outputs_json,
      execution_id = excluded.execution_id, item_id = excluded.item_id, hot_folder_id = excluded.hot_folder_id, recorded_at = excluded.recorded_at,
      recipe_fingerprint = COALESCE(excluded.recipe_fingerprint, ledger.recipe_fingerprint)`)
      .run(entry.key, entry.contentHash, entry.workflowId, entry.parametersHash, entry.sourcePath, entry.outcome,
        JSON.stringify(entry.outputs), entry.executionId, entry.itemId, entry.hotFolderId, entry.recordedAt ?? now(), entry.recipeFingerprint ?? null);
  }
}
