import type pg from 'pg';
import type { HotFolderLedger } from '../watch/ports';
import { recordOutcome, release } from './pg-claims';

// What an instance settles of its own claims when it joins the ledger, before its hot folders claim anything: the
// claims a previous run of it left open (studio-ledger.ts openStudioLedger runs these in this order).

/**
 * Our own claims from a previous run still marked `submitting`. Mid-submit when it ended: the local journal makes
 * those items `unknown` (never resubmitted), and the studio must say the same so no other instance waits on them
 * forever. But a claim whose local item is back to be sent and was never sent (put back at a stop or after a
 * refusal, the claim's give-back lost to a crash or an unreachable database) is only `claimed` again: called
 * unknown, it would say "may have been charged" and its photo would never be processed.
 */
export async function sweepSubmitting(pool: pg.Pool, me: string, unsentLocally?: (key: string) => boolean): Promise<void> {
  const { rows } = await pool.query('SELECT key FROM batchroom_claims WHERE owner = $1 AND state = \'submitting\'', [me]);
  const unsent = (rows as Array<{ key: string }>).map((row) => row.key).filter((key) => unsentLocally?.(key) === true);
  if (unsent.length > 0) {
    await pool.query(`UPDATE batchroom_claims SET state = 'claimed', updated_at = now()
      WHERE owner = $1 AND state = 'submitting' AND key = ANY($2::text[])`, [me, unsent]);
  }
  await pool.query(`UPDATE batchroom_claims SET state = 'unknown', finished_at = now(), updated_at = now(),
    reason = 'unknown — check the provider''s dashboard: interrupted while being submitted (it may have been charged); not resubmitted'
    WHERE owner = $1 AND state = 'submitting'`, [me]);
}

/**
 * Our claims still open in the database whose outcome the local journal already has: recorded while the database
 * was unreachable and the process ended before it came back. The database learns them now.
 */
export async function settleFromLocal(pool: pg.Pool, me: string, local: HotFolderLedger): Promise<void> {
  const { rows } = await pool.query(`SELECT key, folder_key, content_hash, workflow_id, parameters_hash, source_path, execution_id, credits_charged
    FROM batchroom_claims WHERE owner = $1 AND state IN ('claimed', 'accepted')`, [me]);
  for (const row of rows as Array<Record<string, string | null>>) {
    const known = await local.get(String(row.key));
    if (!known) continue;
    await recordOutcome(pool, me, String(row.folder_key), {
      key: String(row.key), contentHash: String(row.content_hash), workflowId: String(row.workflow_id), parametersHash: String(row.parameters_hash),
      sourcePath: String(row.source_path), outcome: known.outcome, outputs: [], executionId: row.execution_id ?? null, itemId: null, hotFolderId: null,
      creditsCharged: known.outcome === 'failed' || known.outcome === 'cancelled' ? 0 : Number(row.credits_charged ?? 0),
    });
  }
}

/**
 * Our claims still `claimed` (never submitting: nothing was sent under them) that the local journal has no record of.
 * Run at start, before this run's hot folders claim anything. A claim whose photo has a local item is kept: the
 * engine resumes that item and submits under it. release() deletes only a row still ours and still `claimed`.
 */
export async function releaseUnjournaled(pool: pg.Pool, me: string, knownLocally: (keys: readonly string[]) => ReadonlySet<string>): Promise<void> {
  const { rows } = await pool.query('SELECT key FROM batchroom_claims WHERE owner = $1 AND state = \'claimed\'', [me]);
  const keys = (rows as Array<{ key: string }>).map((row) => row.key);
  if (keys.length === 0) return;
  const known = knownLocally(keys);
  for (const key of keys) if (!known.has(key)) await release(pool, me, key);
}
