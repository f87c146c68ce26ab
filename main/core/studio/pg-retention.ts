import type pg from 'pg';
import { FOLD_SPEND } from './pg-spend';

// The studio ledger's retention rule (docs/studio.md, "Retention"). The ledger is the studio's done ledger: a row
// that says a photo was paid — or may have been — is what keeps every instance from paying for it again, for as long
// as the photo could be seen again (a re-copied shoot, a re-armed archive, a new machine with an empty journal). So
// only rows that prove no payment go: a failure the service never charged, finished more than `failedDays` ago
// (default 90). Its photo, if it is still in a watched folder, is tried once more — as a new photo would be, at no
// cost for the attempt that failed. Everything else stays: saved, skipped, charged-no-result, unknown (may have
// been charged), cancelled (a person decided), any row with credits charged, and every claim in flight.
//
// Run by whom and when: every instance asks at most hourly (its heartbeat); the one that gets the advisory lock runs
// it if the last run, by the database's clock, is a day old. It deletes in small batches, each its own statement,
// skipping rows a claim holds, so no claim waits on it.

export const RETENTION_LOCK = 7_319_020; // next to the migration lock (pg-migrations.ts); any constant every build shares
export const RETAIN_FAILED_DAYS = 90;
const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** Failures (never charged) finished longer ago than this go (default 90 days). */
  failedDays?: number;
  /** At most one run per this long across the studio (default a day). 0: run now whenever the lock is free. */
  everyMs?: number;
  /** Rows per DELETE (default 2,000): short statements, so the ledger never stalls on the sweep. */
  batch?: number;
}

export interface RetentionResult {
  /** False: another instance holds the lock, or the last run is recent enough. */
  ran: boolean;
  removed: number;
}

export async function runRetention(pool: pg.Pool, options: RetentionOptions = {}): Promise<RetentionResult> {
  const failedDays = options.failedDays ?? RETAIN_FAILED_DAYS;
  const everyMs = options.everyMs ?? DAY_MS;
  const batch = options.batch ?? 2_000;
  const client = await pool.connect();
  let broken = false;
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS got', [RETENTION_LOCK]);
    if (!rows[0]?.got) return { ran: false, removed: 0 };
    try {
      const due = await client.query(`SELECT NOT EXISTS (SELECT 1 FROM batchroom_maintenance WHERE task = 'retention'
        AND last_run_at > now() - make_interval(secs => $1 / 1000.0)) AS due`, [everyMs]);
      if (!due.rows[0]?.due) return { ran: false, removed: 0 };
      let removed = 0;
      for (;;) {
        const gone = await client.query(`DELETE FROM batchroom_claims WHERE key IN (
            SELECT key FROM batchroom_claims WHERE state = 'failed' AND credits_charged = 0
              AND finished_at < now() - make_interval(days => $1) LIMIT $2 FOR UPDATE SKIP LOCKED)
          AND state = 'failed' AND credits_charged = 0`, [failedDays, batch]);
        removed += gone.rowCount ?? 0;
        if ((gone.rowCount ?? 0) < batch) break;
      }
      // Spend rows (schema 7) are one per connection that ever claimed: rows idle for an hour fold into one per folder and
      // instance, so the sums a budget check and the status read stay a handful of rows. One statement: the sums never
      // change on the way.
      await client.query(FOLD_SPEND);
      await client.query(`INSERT INTO batchroom_maintenance (task, last_run_at, removed) VALUES ('retention', now(), $1)
        ON CONFLICT (task) DO UPDATE SET last_run_at = EXCLUDED.last_run_at, removed = EXCLUDED.removed`, [removed]);
      return { ran: true, removed };
    } finally {
      // A connection whose unlock failed is dropped: closing it is what frees the lock then.
      await client.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK]).catch(() => {
        broken = true;
      });
    }
  } finally {
    client.release(broken ? true : undefined);
  }
}
