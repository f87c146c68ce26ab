// The claim and the outcome as schemas 5 and 6 had them (the PL/pgSQL functions of pg-functions.ts, which update the
// folder's one row on every claim and outcome), installed under names of their own so bench/scale-studio.ts can time
// them beside schema 7's functions in the same run, the same processes and under the same load. Not used by Batchroom.
import type pg from 'pg';
import { CREDIT_TOLERANCE } from '../shared/engine/money';
import { CLAIM_STATE_GROUPS } from '../shared/engine/claim-states';
import type { LedgerOutcome } from '../main/core/watch/ports';
import type { ClaimRequest, ClaimResult, LedgerRecord } from '../main/core/studio/ledger';
import { CLAIM_FUNCTION, OUTCOME_FUNCTION } from '../main/core/studio/pg-functions';
import { num } from '../main/core/studio/pg-tx';

const DONE_STATES = [...CLAIM_STATE_GROUPS.done];
const MAX_ATTEMPTS = 2;

/** Creates batchroom_claim_v6 and batchroom_record_outcome_v6: schema 6's released SQL, renamed. */
export async function installV6Functions(client: Pick<pg.ClientBase, 'query'>): Promise<void> {
  await client.query(CLAIM_FUNCTION.replace('FUNCTION batchroom_claim(', 'FUNCTION batchroom_claim_v6(')
    + OUTCOME_FUNCTION.replace('FUNCTION batchroom_record_outcome(', 'FUNCTION batchroom_record_outcome_v6('));
}

export async function claimV6(pool: pg.Pool, me: string, request: ClaimRequest): Promise<ClaimResult> {
  const { rows } = await pool.query(`SELECT o_kind, o_state, o_owner, o_budget, o_committed
    FROM batchroom_claim_v6($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12::text[], $13, $14::numeric)`,
  [me, request.key, request.folderKey, request.contentHash, request.workflowId, request.parametersHash, request.relPath, request.sourcePath,
    request.cost, request.job ?? null, request.client ?? null, DONE_STATES, MAX_ATTEMPTS, CREDIT_TOLERANCE]);
  const row = rows[0] as { o_kind: ClaimResult['kind']; o_state: string | null; o_owner: string | null; o_budget: string | null; o_committed: string | null };
  switch (row.o_kind) {
    case 'claimed': return { kind: 'claimed' };
    case 'done': return { kind: 'done', outcome: row.o_state as LedgerOutcome };
    case 'taken': return { kind: 'taken', owner: row.o_owner, state: row.o_state ?? 'claimed' };
    case 'budget': return { kind: 'budget', budget: num(row.o_budget), committed: num(row.o_committed) };
  }
}

export async function recordOutcomeV6(pool: pg.Pool, me: string, folderKey: string, entry: LedgerRecord): Promise<void> {
  await pool.query(`SELECT batchroom_record_outcome_v6($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::numeric, $12, $13::text[])`,
  [me, folderKey, entry.key, entry.contentHash, entry.workflowId, entry.parametersHash, entry.sourcePath, entry.outcome,
    JSON.stringify(entry.outputs), entry.executionId, entry.creditsCharged ?? 0, entry.reason ?? null, ['failed', 'unknown']]);
}
