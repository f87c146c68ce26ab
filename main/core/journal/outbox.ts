import type { ItemState } from '../../../shared/engine/model';

// The outcome outbox: each terminal outcome of each attempt of an item, written in the same transaction as the
// state change that produced it, numbered by `seq`. Consumers (hot folders, notifications, the CLI summary) read
// it in order from their own cursor, which is journalled too, so one that restarts continues where it stopped and
// none depends on the throttled progress events. OutcomeStream is the small interface a consumer sees: another
// store (the studio ledger) can provide it.

/** One terminal outcome of one attempt of an item, as it was when it happened. */
export interface OutcomeRecord {
  seq: number;
  itemId: string;
  batchId: string;
  /** 1 for the item's first outcome; a retried or resubmitted item's next outcome is 2, and so on. */
  attempt: number;
  state: ItemState;
  reason: string | null;
  outputs: string[];
  executionId: string | null;
  creditsCharged: number;
  recordedAt: string;
}

export interface OutcomeStream {
  /** Outcomes with seq > `seq`, oldest first. */
  outcomesAfter(seq: number, limit?: number): OutcomeRecord[];
  /** The last seq written (0 when none). */
  lastOutcomeSeq(): number;
  /** Where `consumer` has read up to, or null for a consumer never seen. */
  outcomeCursor(consumer: string): number | null;
  saveOutcomeCursor(consumer: string, seq: number): void;
  /** Called after each outcome is committed (in-process wake-up; the journal is the record). */
  onOutcome(listener: () => void): () => void;
}

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface Outbox extends OutcomeStream {
  /** Appends the item's current (terminal) state as its next outcome; call inside the transaction that set it. */
  record(itemId: string): void;
  /** Tells the listeners; call once the transaction committed. */
  notify(): void;
}

export function createOutbox(stmt: (sql: string) => Stmt, now: () => string): Outbox {
  const listeners = new Set<() => void>();
  return {
    record(itemId) {
      stmt(`INSERT INTO outcomes (item_id, batch_id, attempt, state, reason, outputs_json, execution_id, credits_charged, recorded_at)
        SELECT id, batch_id, (SELECT COUNT(*) FROM outcomes o WHERE o.item_id = items.id) + 1, state, reason, outputs_json, execution_id,
          credits_charged, ? FROM items WHERE id = ?`).run(now(), itemId);
    },
    notify() {
      for (const listener of listeners) listener();
    },
    outcomesAfter(seq, limit = 500) {
      return (stmt(`SELECT seq, item_id, batch_id, attempt, state, reason, outputs_json, execution_id, credits_charged, recorded_at
        FROM outcomes WHERE seq > ? ORDER BY seq LIMIT ?`).all(seq, limit) as Row[]).map((r) => ({
        seq: Number(r.seq), itemId: String(r.item_id), batchId: String(r.batch_id), attempt: Number(r.attempt),
        state: String(r.state) as ItemState, reason: r.reason === null || r.reason === undefined ? null : String(r.reason),
        outputs: JSON.parse(String(r.outputs_json ?? '[]')) as string[],
        executionId: r.execution_id === null || r.execution_id === undefined ? null : String(r.execution_id),
        creditsCharged: Number(r.credits_charged ?? 0), recordedAt: String(r.recorded_at),
      }));
    },
    lastOutcomeSeq: () => Number((stmt(`SELECT COALESCE(MAX(seq), 0) AS seq FROM outcomes`).get() as Row).seq),
    outcomeCursor(consumer) {
      const row = stmt(`SELECT seq FROM outcome_cursors WHERE consumer = ?`).get(consumer) as Row | undefined;
      return row ? Number(row.seq) : null;
    },
    saveOutcomeCursor(consumer, seq) {
      stmt(`INSERT INTO outcome_cursors (consumer, seq) VALUES (?, ?) ON CONFLICT(consumer) DO UPDATE SET seq = MAX(seq, excluded.seq)`).run(consumer, seq);
    },
    onOutcome(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
