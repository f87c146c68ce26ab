import type pg from 'pg';
import { AppError } from '../../../shared/errors';
import { CREDIT_TOLERANCE } from '../../../shared/engine/money';
import { CLAIM_STATE_GROUPS, claimStatesOf } from '../../../shared/engine/claim-states';
import type { LedgerOutcome } from '../watch/ports';
import type { AcceptedBatch, ClaimRequest, ClaimResult, LedgerRecord } from './ledger';
import { spendUpsert } from './pg-spend';
import { num } from './pg-tx';

// The claim rows of the studio ledger. One row per ledger key (content hash + workflow + parameters), so the
// primary key is what makes "exactly one instance processes a photo" true: the first INSERT wins, the others wait
// on its row lock and see it. Every check of a lease uses the database's clock, never a machine's.

/** Claims an instance is working on (shared/engine/claim-states.ts: the one table of claim states). */
export const OPEN_STATES = claimStatesOf('inFlight');
/** A claim's finished outcomes: never sent again automatically. */
const DONE_STATES: ReadonlySet<string> = CLAIM_STATE_GROUPS.done;
/** A failed photo is tried at most this often across the studio (then it waits for a person: reprocess). */
const MAX_ATTEMPTS = 2;

export async function setFolderBudget(pool: pg.Pool, folderKey: string, budget: number | null): Promise<void> {
  await pool.query(`INSERT INTO batchroom_folders (folder_key, budget) VALUES ($1, $2)
    ON CONFLICT (folder_key) DO UPDATE SET budget = EXCLUDED.budget, updated_at = now()`, [folderKey, budget]);
}

export async function getOutcome(pool: pg.Pool, key: string): Promise<{ outcome: LedgerOutcome } | null> {
  const { rows } = await pool.query('SELECT state FROM batchroom_claims WHERE key = $1', [key]);
  const state = rows[0]?.state as string | undefined;
  return state && (DONE_STATES.has(state) || state === 'failed') ? { outcome: state as LedgerOutcome } : null;
}

/**
 * One statement (batchroom_claim, schema 5): the first instance to insert the key owns the photo; a finished photo is
 * done for everyone; a claim of an instance that is gone and never sent is taken again; a failure elsewhere gets one
 * more try here (a full disk on one machine is not the photo's fault). The budget reservation is in the same call.
 */
export async function claim(pool: pg.Pool, me: string, request: ClaimRequest): Promise<ClaimResult> {
  const { key, folderKey, cost } = request;
  // The claim commits without waiting for its WAL flush (synchronous_commit off for this one transaction, by
  // set_config's is_local): nothing is paid on a claim. What must be durable before the POST is the `submitting`
  // mark (markSubmitting, synchronous as every other statement), and its flush carries every WAL record before it,
  // this claim's with its budget reservation included. A server crash that loses the claim therefore loses it before
  // anything was sent: markSubmitting then finds no claim of ours and refuses, and another instance that saw it
  // 'taken' asks again (claim-step.ts) and may claim it. Saves one disk flush per photo, the claim's wait on it.
  const { rows } = await pool.query(`SELECT o_kind, o_state, o_owner, o_budget, o_committed, set_config('synchronous_commit', 'off', true)
    FROM batchroom_claim($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12::text[], $13, $14::numeric)`,
  [me, key, folderKey, request.contentHash, request.workflowId, request.parametersHash, request.relPath, request.sourcePath, cost,
    request.job ?? null, request.client ?? null, [...DONE_STATES], MAX_ATTEMPTS, CREDIT_TOLERANCE]);
  const row = rows[0] as { o_kind: ClaimResult['kind']; o_state: string | null; o_owner: string | null; o_budget: string | null; o_committed: string | null };
  switch (row.o_kind) {
    case 'claimed': return { kind: 'claimed' };
    case 'done': return { kind: 'done', outcome: row.o_state as LedgerOutcome };
    case 'taken': return { kind: 'taken', owner: row.o_owner, state: row.o_state ?? 'claimed' };
    case 'budget': return { kind: 'budget', budget: num(row.o_budget), committed: num(row.o_committed) };
  }
}

/** Gives an unsubmitted claim back (and its budget reservation). */
export async function release(pool: pg.Pool, me: string, key: string): Promise<void> {
  // One statement (schema 7): the reservation goes back through this connection's own spend row (pg-spend.ts).
  await pool.query(`WITH gone AS (DELETE FROM batchroom_claims WHERE key = $1 AND owner = $2 AND state = 'claimed'
      RETURNING folder_key, credits_reserved)
    ${spendUpsert('SELECT folder_key, $2::text, -credits_reserved, 0, 0, 0, 0, 0::numeric FROM gone')}`, [key, me]);
}

export async function markSubmitting(pool: pg.Pool, me: string, key: string): Promise<void> {
  // Our own failed or cancelled photo sent again by hand (Retry failed, Resume) is ours to submit; another
  // instance's claim never is.
  const { rows } = await pool.query(`UPDATE batchroom_claims SET state = 'submitting', updated_at = now(), finished_at = NULL,
      attempts = attempts + CASE WHEN state IN ('failed', 'cancelled') THEN 1 ELSE 0 END
    WHERE key = $1 AND owner = $2 AND state IN ('claimed', 'submitting', 'failed', 'cancelled') RETURNING key`, [key, me]);
  if (rows.length > 0) return;
  const current = await pool.query('SELECT state, owner FROM batchroom_claims WHERE key = $1', [key]);
  const row = current.rows[0] as { state: string; owner: string | null } | undefined;
  throw new AppError('conflict', row
    ? `this photo is ${row.state} by another Batchroom instance (${row.owner ?? 'none'}): not submitted here`
    : 'this photo\'s studio claim was given up: not submitted here', row ? {} : { claimGone: true });
}

/**
 * A `submitting` mark whose request never left (the engine put the item back: a stop, an answered refusal): back to
 * `claimed`, so a restart does not call it "may have been charged". Only our own, only from `submitting`.
 */
export async function markNotSent(pool: pg.Pool, me: string, key: string): Promise<void> {
  await pool.query(`UPDATE batchroom_claims SET state = 'claimed', updated_at = now() WHERE key = $1 AND owner = $2 AND state = 'submitting'`, [key, me]);
}

/**
 * The execution id, the moment the submit answers. Also accepted when another instance marked the claim
 * `unknown` meanwhile (our lease lapsed while we were submitting): the id turns "unknown" back into "followed".
 */
export async function markAccepted(pool: pg.Pool, me: string, key: string, executionId: string, credits: number, batch?: AcceptedBatch): Promise<boolean> {
  // The batch's job and client win over the folder's at claim time (the folder's settings may have changed since).
  const { rowCount } = await pool.query(`UPDATE batchroom_claims SET state = 'accepted', execution_id = $3, credits_charged = $4,
      owner = $2, reason = NULL, finished_at = NULL, updated_at = now(), accepted_at = now(),
      batch_id = COALESCE($5, batch_id), job = CASE WHEN $5::text IS NULL THEN job ELSE $6 END, client = CASE WHEN $5::text IS NULL THEN client ELSE $7 END,
      recipe_fingerprint = CASE WHEN $5::text IS NULL THEN recipe_fingerprint ELSE $8 END
    WHERE key = $1 AND (owner = $2 OR state = 'unknown') AND state IN ('claimed', 'submitting', 'unknown')`,
  [key, me, executionId, credits, batch?.id ?? null, batch?.job ?? null, batch?.client ?? null, batch?.recipeFingerprint ?? null]);
  return (rowCount ?? 0) > 0;
}

/** Outcomes the folder and instance counters count as failed. */
const FAILED_OUTCOMES = ['failed', 'unknown'];

/**
 * The final outcome: claim row, the folder's budget (reservation → actual charge) and counters, one statement
 * (batchroom_record_outcome, schema 5; since schema 7 the budget and counters are this connection's spend row). Another instance's live claim (ours was lost and taken over) is theirs to finish.
 */
export async function recordOutcome(pool: pg.Pool, me: string, folderKey: string, entry: LedgerRecord): Promise<void> {
  // A cancelled item sent nothing: its outcome is ours to write only over our own claim that nothing was paid on. Not
  // over a claim another instance sent and this one took over to follow (accepted: paid, its result still to save),
  // and never as a new row — a claim a server crash lost, or one given up, would become 'done' for every instance
  // although no one processed the photo (the item ended 'claimed elsewhere' here).
  const onlyOwnUnpaid = entry.outcome === 'cancelled'
    ? ` FROM batchroom_claims WHERE key = $3 AND owner = $1 AND state IN ('claimed', 'failed', 'cancelled')` : '';
  await pool.query(`SELECT batchroom_record_outcome($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::numeric, $12, $13::text[])${onlyOwnUnpaid}`,
  [me, folderKey, entry.key, entry.contentHash, entry.workflowId, entry.parametersHash, entry.sourcePath, entry.outcome,
    JSON.stringify(entry.outputs), entry.executionId, entry.creditsCharged ?? 0, entry.reason ?? null, FAILED_OUTCOMES]);
}
