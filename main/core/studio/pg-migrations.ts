import type pg from 'pg';
import { CLAIM_STATES, claimStateCheck } from '../../../shared/engine/claim-states';
import { CLAIM_FUNCTION, OUTCOME_FUNCTION } from './pg-functions';
import { CLAIM_FUNCTION_7, OUTCOME_FUNCTION_7, SPEND_TABLE } from './pg-spend';

// Versioned schema migrations of the studio ledger, applied in order in one transaction, with the version
// recorded in batchroom_schema. Several instances may start at once: a transaction-scoped advisory lock makes the
// others wait for the first one's migration. Never edit a released migration: add the next one.

const MIGRATION_LOCK = 7_319_019; // any constant shared by every Batchroom build

export const PG_MIGRATIONS: readonly string[] = [
  // 1: instances (lease + heartbeat), folders (shared budget and counters), claims (one row per ledger key).
  `
  CREATE TABLE batchroom_instances (
    id text PRIMARY KEY,
    host text NOT NULL,
    pid integer NOT NULL,
    version text NOT NULL,
    label text,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz NOT NULL,
    stopped_at timestamptz,
    processed integer NOT NULL DEFAULT 0,
    failed integer NOT NULL DEFAULT 0,
    credits_spent numeric NOT NULL DEFAULT 0
  );
  CREATE TABLE batchroom_folders (
    folder_key text PRIMARY KEY,
    budget numeric,
    credits_committed numeric NOT NULL DEFAULT 0,
    processed integer NOT NULL DEFAULT 0,
    failed integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE batchroom_claims (
    key text PRIMARY KEY,
    folder_key text NOT NULL REFERENCES batchroom_folders(folder_key),
    content_hash text NOT NULL,
    workflow_id text NOT NULL,
    parameters_hash text NOT NULL,
    rel_path text NOT NULL,
    source_path text NOT NULL,
    owner text REFERENCES batchroom_instances(id),
    state text NOT NULL CHECK (state IN ('claimed', 'submitting', 'submitted', 'saved', 'failed', 'unknown', 'cancelled', 'skipped')),
    execution_id text UNIQUE,
    credits_reserved numeric NOT NULL DEFAULT 0,
    credits_charged numeric NOT NULL DEFAULT 0,
    outputs jsonb NOT NULL DEFAULT '[]',
    reason text,
    attempts integer NOT NULL DEFAULT 1,
    takeovers integer NOT NULL DEFAULT 0,
    claimed_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
  );
  CREATE INDEX batchroom_claims_open ON batchroom_claims (owner) WHERE state IN ('claimed', 'submitting', 'submitted');
  CREATE INDEX batchroom_claims_finished ON batchroom_claims (owner, finished_at) WHERE finished_at IS NOT NULL;
  `,
  // 2: claim states come from the one claim table (shared/engine/claim-states.ts): 'submitted' is 'accepted' there.
  // The state CHECK itself is widened to that table by syncClaimStateCheck after every migration (it rejected
  // 'charged-no-result', which the ledger writes). The open-claims index covers the table's in-flight states.
  `
  UPDATE batchroom_claims SET state = 'accepted' WHERE state = 'submitted';
  DROP INDEX IF EXISTS batchroom_claims_open;
  CREATE INDEX batchroom_claims_open ON batchroom_claims (owner) WHERE state IN ('claimed', 'submitting', 'accepted');
  `,
  // 3: the job and client a photo was claimed for (its hot folder's), the batch that sent it and when the service took
  // it, so `batchroom report --by job|client --studio` adds every instance's photos and credits up by period (a charge
  // counts when the service took it; one the service never answered for, when it was judged: finished_at).
  `
  ALTER TABLE batchroom_claims ADD COLUMN job text, ADD COLUMN client text, ADD COLUMN batch_id text, ADD COLUMN accepted_at timestamptz;
  CREATE INDEX batchroom_claims_by_finish ON batchroom_claims (finished_at) WHERE finished_at IS NOT NULL;
  CREATE INDEX batchroom_claims_by_charge ON batchroom_claims ((COALESCE(accepted_at, finished_at)));
  `,
  // 4: the recipe a photo was paid with (its batch's spec.recipe.fingerprint, shared/recipes/fingerprint.ts), set with
  // the execution id: a claim row says which recipe paid it. Null: no recipe, or written before this version.
  `
  ALTER TABLE batchroom_claims ADD COLUMN recipe_fingerprint text;
  `,
  // 5: a claim and an outcome are one statement each (pg-functions.ts): the folder's row lock (the shared budget) is
  // no longer held across network round trips, which made three instances' claims queue behind each other.
  CLAIM_FUNCTION + OUTCOME_FUNCTION,
  // 6: the retention rule (pg-retention.ts): when it last ran (one instance a day, by the database's clock), and the
  // index that finds what it may remove (failed, never charged, finished long ago) without reading the whole ledger.
  `
  CREATE TABLE batchroom_maintenance (task text PRIMARY KEY, last_run_at timestamptz NOT NULL, removed bigint NOT NULL DEFAULT 0);
  CREATE INDEX batchroom_claims_failed_by_finish ON batchroom_claims (finished_at) WHERE state = 'failed';
  `,
  // 7: a folder's spend and counters in rows per folder, instance and connection (pg-spend.ts), summed when read:
  // every claim and outcome updated the folder's one row, and all instances' claims queued on its lock.
  SPEND_TABLE + CLAIM_FUNCTION_7 + OUTCOME_FUNCTION_7,
];

const STATE_CHECK = 'batchroom_claims_state_check';

/**
 * Makes the claims' state CHECK allow every state of the shared claim table (generated, never written by hand), in
 * the migration's transaction. It only ever widens: a build whose table gained a state adds it; an older build of
 * the same schema never takes a newer one's states away, and a state an instance still running an older build
 * writes during a rolling upgrade ('submitted') stays allowed.
 */
export async function syncClaimStateCheck(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1 AND conrelid = 'batchroom_claims'::regclass`, [STATE_CHECK]);
  const have = new Set([...(rows[0]?.def ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!));
  if (rows.length > 0 && CLAIM_STATES.every((s) => have.has(s))) return;
  const allowed = [...new Set([...CLAIM_STATES, ...have])];
  await client.query(`ALTER TABLE batchroom_claims DROP CONSTRAINT IF EXISTS ${STATE_CHECK}`);
  await client.query(`ALTER TABLE batchroom_claims ADD CONSTRAINT ${STATE_CHECK} ${claimStateCheck('state', allowed)}`);
}

/**
 * Brings the database to the schema this build knows; refuses one written by a newer Batchroom. `upTo` stops at an
 * older schema (tests: a ledger as an earlier build left it).
 */
export async function migrateLedger(client: pg.ClientBase, upTo = PG_MIGRATIONS.length): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS batchroom_schema (version integer NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM batchroom_schema');
    let current = rows[0]?.version ?? 0;
    if (rows.length === 0) await client.query('INSERT INTO batchroom_schema (version) VALUES (0)');
    if (current > PG_MIGRATIONS.length) {
      throw new Error(`the studio ledger was written by a newer Batchroom (schema ${current}, this build knows ${PG_MIGRATIONS.length}): update every instance`);
    }
    for (; current < upTo; current++) {
      await client.query(PG_MIGRATIONS[current]!);
      await client.query('UPDATE batchroom_schema SET version = $1', [current + 1]);
    }
    await syncClaimStateCheck(client);
    await client.query('COMMIT');
    return current;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
