// The claim and the outcome as schema 4 had them (TypeScript transactions, pg-claims.ts before migration 5), kept
// only so bench/scale-studio.ts can time them beside the schema-5 functions in the same run, under the same load.
// Not used by Batchroom.
import type pg from 'pg';
import { CREDIT_TOLERANCE } from '../shared/engine/money';
import { CLAIM_STATE_GROUPS } from '../shared/engine/claim-states';
import type { LedgerOutcome } from '../main/core/watch/ports';
import type { ClaimRequest, ClaimResult, LedgerRecord } from '../main/core/studio/ledger';
import { inTransaction, num, type Queryable } from '../main/core/studio/pg-tx';

/** A claim's finished outcomes: never sent again automatically. */
const DONE_STATES: ReadonlySet<string> = CLAIM_STATE_GROUPS.done;
/** A failed photo is tried at most this often across the studio (then it waits for a person: reprocess). */
const MAX_ATTEMPTS = 2;

async function ensureFolder(client: Queryable, folderKey: string): Promise<void> {
  await client.query('INSERT INTO batchroom_folders (folder_key) VALUES ($1) ON CONFLICT (folder_key) DO NOTHING', [folderKey]);
}

/** Adds `delta` credits to the folder's committed total if its budget has room; false (nothing changed) if not. */
async function reserve(client: Queryable, folderKey: string, delta: number): Promise<{ ok: boolean; budget: number; committed: number }> {
  // $2 is numeric: compared with the literal 0 alone, PostgreSQL took it for an integer and refused 1.5 credits.
  const { rows } = await client.query(`UPDATE batchroom_folders SET credits_committed = credits_committed + $2::numeric, updated_at = now()
    WHERE folder_key = $1 AND (budget IS NULL OR $2::numeric <= 0 OR credits_committed + $2::numeric <= budget + $3)
    RETURNING budget, credits_committed`, [folderKey, delta, CREDIT_TOLERANCE]);
  if (rows.length > 0) return { ok: true, budget: num(rows[0].budget), committed: num(rows[0].credits_committed) };
  const current = await client.query('SELECT budget, credits_committed FROM batchroom_folders WHERE folder_key = $1', [folderKey]);
  return { ok: false, budget: num(current.rows[0]?.budget), committed: num(current.rows[0]?.credits_committed) };
}

export async function claimV4(pool: pg.Pool, me: string, request: ClaimRequest): Promise<ClaimResult> {
  const { key, folderKey, cost } = request;
  return inTransaction<ClaimResult>(pool, async (client) => {
    await ensureFolder(client, folderKey);
    const { rows } = await client.query(`SELECT c.state, c.owner, c.attempts, c.credits_reserved,
        (i.id IS NULL OR i.lease_until < now()) AS owner_gone
      FROM batchroom_claims c LEFT JOIN batchroom_instances i ON i.id = c.owner WHERE c.key = $1 FOR UPDATE OF c`, [key]);
    const row = rows[0] as { state: string; owner: string | null; attempts: number; credits_reserved: string; owner_gone: boolean } | undefined;
    if (!row) {
      const inserted = await client.query(`INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash,
          rel_path, source_path, owner, state, credits_reserved, job, client)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'claimed', $9, $10, $11) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [key, folderKey, request.contentHash, request.workflowId, request.parametersHash, request.relPath, request.sourcePath, me, cost,
        request.job ?? null, request.client ?? null]);
      // Someone inserted it between our SELECT and INSERT (we waited on their row and now see it): theirs.
      if (inserted.rowCount === 0) return { value: { kind: 'taken', owner: null, state: 'claimed' } };
      const budget = await reserve(client, folderKey, cost);
      if (!budget.ok) return { value: { kind: 'budget', budget: budget.budget, committed: budget.committed }, rollback: true };
      return { value: { kind: 'claimed' } };
    }
    if (DONE_STATES.has(row.state)) return { value: { kind: 'done', outcome: row.state as LedgerOutcome } };
    // Not yet submitted by an instance that is gone: nothing was sent, so it is claimed again. A failure elsewhere
    // gets one more try here (a photo that failed on one machine may succeed on another, e.g. a full disk there).
    const abandoned = row.state === 'claimed' && row.owner_gone;
    const retryable = row.state === 'failed' && row.attempts < MAX_ATTEMPTS && row.owner !== me;
    if (!abandoned && !retryable) return { value: { kind: 'taken', owner: row.owner, state: row.state } };
    const budget = await reserve(client, folderKey, cost - (abandoned ? num(row.credits_reserved) : 0));
    if (!budget.ok) return { value: { kind: 'budget', budget: budget.budget, committed: budget.committed }, rollback: true };
    await client.query(`UPDATE batchroom_claims SET owner = $2, state = 'claimed', attempts = attempts + $3, credits_reserved = $4,
        credits_charged = 0, execution_id = NULL, outputs = '[]', reason = NULL, finished_at = NULL, claimed_at = now(), updated_at = now(),
        folder_key = $5, rel_path = $6, source_path = $7, job = $8, client = $9, batch_id = NULL, accepted_at = NULL, recipe_fingerprint = NULL
      WHERE key = $1`, [key, me, retryable ? 1 : 0, cost, folderKey, request.relPath, request.sourcePath, request.job ?? null, request.client ?? null]);
    return { value: { kind: 'claimed' } };
  });
}

const countsAsFailed = (state: string) => state === 'failed' || state === 'unknown';

/** The final outcome: claim row, the folder's budget (reservation → actual charge) and counters, one transaction. */
export async function recordOutcomeV4(pool: pg.Pool, me: string, folderKey: string, entry: LedgerRecord): Promise<void> {
  const charged = entry.creditsCharged ?? 0;
  await inTransaction(pool, async (client) => {
    await ensureFolder(client, folderKey);
    const { rows } = await client.query(`SELECT state, owner, credits_reserved, folder_key FROM batchroom_claims WHERE key = $1 FOR UPDATE`, [entry.key]);
    const row = rows[0] as { state: string; owner: string | null; credits_reserved: string; folder_key: string } | undefined;
    let before = 'none';
    let reserved = 0;
    let folder = folderKey;
    if (!row) {
      await client.query(`INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'claimed')`,
      [entry.key, folderKey, entry.contentHash, entry.workflowId, entry.parametersHash, entry.sourcePath, entry.sourcePath, me]);
    } else {
      // Another instance's live claim (ours was lost and taken over) is theirs to finish.
      if (row.owner !== me && row.owner !== null && row.state !== 'unknown') return { value: undefined };
      before = row.state;
      reserved = num(row.credits_reserved);
      folder = row.folder_key;
    }
    await client.query(`UPDATE batchroom_claims SET state = $2, outputs = $3, execution_id = COALESCE($4, execution_id), credits_charged = $5,
        credits_reserved = 0, reason = $6, owner = $7, finished_at = now(), updated_at = now() WHERE key = $1`,
    [entry.key, entry.outcome, JSON.stringify(entry.outputs), entry.executionId, charged, entry.reason ?? null, me]);
    const processed = (entry.outcome === 'saved' ? 1 : 0) - (before === 'saved' ? 1 : 0);
    const failed = (countsAsFailed(entry.outcome) ? 1 : 0) - (countsAsFailed(before) ? 1 : 0);
    await client.query(`UPDATE batchroom_folders SET credits_committed = GREATEST(0, credits_committed + $2), processed = processed + $3,
      failed = failed + $4, updated_at = now() WHERE folder_key = $1`, [folder, charged - reserved, processed, failed]);
    await client.query(`UPDATE batchroom_instances SET processed = processed + $2, failed = failed + $3, credits_spent = credits_spent + $4
      WHERE id = $1`, [me, Math.max(0, processed), Math.max(0, failed), charged]);
    return { value: undefined };
  });
}
