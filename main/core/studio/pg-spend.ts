// Studio ledger migration 7: a folder's spend and counters move out of its one batchroom_folders row into rows of
// their own, one per folder, instance and database connection (batchroom_folder_spend), summed when read. Measured
// (bench/scale-studio.ts): every claim and every outcome of schema 5 updated the folder's row, so the claims of all
// three instances (twelve connections) queued on that one row lock — held until COMMIT, so across the commit's WAL
// flush too. Now a claim in a folder without a budget writes only rows no other transaction can hold at that moment
// (pg_backend_pid(): one transaction at a time per connection), and takes the folder row FOR SHARE only, so a budget
// set meanwhile waits for claims already in flight and every later one sees it. A folder with a budget still
// serializes its claims (a transaction lock on the folder), then checks the summed spend: never past the budget.
// No foreign key on the spend rows: its check would lock the folder row from inside an outcome that holds a claim row.
// Released SQL: never edit it, replace the functions in a later migration.

/**
 * Adds a spend row's deltas to this connection's own row. `source` gives, in this order: folder_key, owner, committed,
 * processed, failed, inst_processed, inst_failed, spent (a VALUES list or a SELECT). Every writer uses it.
 */
export const spendUpsert = (source: string): string => `INSERT INTO batchroom_folder_spend AS s
    (folder_key, owner, committed, processed, failed, inst_processed, inst_failed, spent, slot)
  SELECT *, pg_backend_pid() FROM (${source}) AS d
  ON CONFLICT (folder_key, owner, slot) DO UPDATE SET committed = s.committed + EXCLUDED.committed, processed = s.processed + EXCLUDED.processed,
    failed = s.failed + EXCLUDED.failed, inst_processed = s.inst_processed + EXCLUDED.inst_processed,
    inst_failed = s.inst_failed + EXCLUDED.inst_failed, spent = s.spent + EXCLUDED.spent, updated_at = now()`;

/**
 * The table. What schema 6 counted stays on the folder and instance rows, added to the spend rows whenever they are
 * summed (the budget check, the status read): moving it (copy, then zero) lost the claims an instance still on
 * schema 6's build committed in between, and that build keeps writing the folder's credits_committed (its release)
 * after the migration (test/main/studio/pg-spend-upgrade-race.test.ts).
 */
export const SPEND_TABLE = `
CREATE TABLE batchroom_folder_spend (
  folder_key text NOT NULL,
  owner text NOT NULL,
  slot integer NOT NULL,
  committed numeric NOT NULL DEFAULT 0,
  processed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  inst_processed integer NOT NULL DEFAULT 0,
  inst_failed integer NOT NULL DEFAULT 0,
  spent numeric NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (folder_key, owner, slot)
);
`;

const SPEND_CALL = (...values: string[]) => `${spendUpsert(`VALUES (${values[0]}, p_me, ${values.slice(1).join(', ')})`)};`;

export const CLAIM_FUNCTION_7 = `
CREATE OR REPLACE FUNCTION batchroom_claim(p_me text, p_key text, p_folder text, p_content text, p_workflow text, p_params text,
  p_rel text, p_source text, p_cost numeric, p_job text, p_client text, p_done text[], p_max_attempts integer, p_tolerance numeric,
  OUT o_kind text, OUT o_state text, OUT o_owner text, OUT o_budget numeric, OUT o_committed numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  r record;
  v_budget numeric;
  v_spent numeric;
  existed boolean;
  owner_gone boolean;
  abandoned boolean;
  retryable boolean;
  delta numeric;
  moved numeric := 0;
BEGIN
  -- Most asks are answered without a lock or a write: a photo done, or held by a live instance (a folder rescanned, the
  -- other instances asking for a photo one of them won). A read-only call commits without a WAL flush and never
  -- waits on the row; the answer is what the ledger said at that moment, and a photo 'taken' is asked again once
  -- settled (settledKeys), as after a locked answer.
  SELECT state, owner, attempts INTO r FROM batchroom_claims WHERE key = p_key;
  IF FOUND THEN
    IF r.state = ANY(p_done) THEN
      o_kind := 'done'; o_state := r.state;
      RETURN;
    END IF;
    IF NOT (r.state = 'claimed' AND NOT EXISTS (SELECT 1 FROM batchroom_instances WHERE id = r.owner AND lease_until >= now()))
        AND NOT (r.state = 'failed' AND r.attempts < p_max_attempts AND r.owner IS DISTINCT FROM p_me) THEN
      o_kind := 'taken'; o_state := r.state; o_owner := r.owner;
      RETURN;
    END IF;
  END IF;
  -- The folder row is read, never written, FOR SHARE: claims do not wait on each other, and a budget being set
  -- waits for the claims in flight, so every later claim sees it. With a budget, the folder's claims check the
  -- summed spend one at a time (a transaction lock on the folder's name; upgrading the shared row lock instead would
  -- deadlock two such claims), so together they never pass it.
  SELECT budget INTO v_budget FROM batchroom_folders WHERE folder_key = p_folder FOR SHARE;
  IF NOT FOUND THEN
    INSERT INTO batchroom_folders (folder_key) VALUES (p_folder) ON CONFLICT (folder_key) DO NOTHING;
    SELECT budget INTO v_budget FROM batchroom_folders WHERE folder_key = p_folder FOR SHARE;
  END IF;
  IF v_budget IS NOT NULL THEN
    -- The spend summed below must be read after this lock, by a statement of its own: under REPEATABLE READ or
    -- SERIALIZABLE the snapshot is older than the lock and misses the last holder's claim (an overspent budget).
    -- createLedgerPool asks for READ COMMITTED; a database or caller that overrides it is refused here.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
      RAISE EXCEPTION 'the studio ledger needs READ COMMITTED transactions (this one is %)', current_setting('transaction_isolation');
    END IF;
    PERFORM pg_advisory_xact_lock(7319021, hashtext(p_folder));
  END IF;
  -- Locked first, its owner's lease read after, in a statement of its own (schema 5: a joined read lost the owner).
  SELECT state, owner, attempts, credits_reserved, folder_key INTO r FROM batchroom_claims WHERE key = p_key FOR UPDATE;
  existed := FOUND;
  IF existed THEN
    IF r.state = ANY(p_done) THEN
      o_kind := 'done'; o_state := r.state;
      RETURN;
    END IF;
    owner_gone := NOT EXISTS (SELECT 1 FROM batchroom_instances WHERE id = r.owner AND lease_until >= now());
    abandoned := r.state = 'claimed' AND owner_gone;
    retryable := r.state = 'failed' AND r.attempts < p_max_attempts AND r.owner IS DISTINCT FROM p_me;
    IF NOT abandoned AND NOT retryable THEN
      o_kind := 'taken'; o_state := r.state; o_owner := r.owner;
      RETURN;
    END IF;
    -- An abandoned claim's reservation is counted in the folder it was made in. The key is the photo, not its folder:
    -- taken again from another studio folder (the same photo copied into both), it goes back to that folder and this
    -- one reserves the whole cost.
    IF abandoned AND r.folder_key IS DISTINCT FROM p_folder THEN
      moved := r.credits_reserved;
      delta := p_cost;
    ELSE
      delta := p_cost - CASE WHEN abandoned THEN r.credits_reserved ELSE 0 END;
    END IF;
  ELSE
    delta := p_cost;
  END IF;
  IF v_budget IS NOT NULL AND delta > 0 THEN
    -- Schema 6's figure on the folder row (and what an instance on its build still writes there) plus the spend rows.
    SELECT GREATEST(0, f.credits_committed + COALESCE((SELECT sum(committed) FROM batchroom_folder_spend s WHERE s.folder_key = p_folder), 0))
      INTO v_spent FROM batchroom_folders f WHERE f.folder_key = p_folder;
    IF v_spent + delta > v_budget + p_tolerance THEN
      o_kind := 'budget'; o_budget := v_budget; o_committed := v_spent;
      RETURN;
    END IF;
  END IF;
  IF NOT existed THEN
    INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state,
        credits_reserved, job, client)
      VALUES (p_key, p_folder, p_content, p_workflow, p_params, p_rel, p_source, p_me, 'claimed', p_cost, p_job, p_client)
      ON CONFLICT (key) DO NOTHING;
    IF NOT FOUND THEN
      o_kind := 'taken'; o_state := 'claimed';
      RETURN;
    END IF;
  ELSE
    UPDATE batchroom_claims SET owner = p_me, state = 'claimed', attempts = attempts + CASE WHEN retryable THEN 1 ELSE 0 END,
        credits_reserved = p_cost, credits_charged = 0, execution_id = NULL, outputs = '[]', reason = NULL, finished_at = NULL,
        claimed_at = now(), updated_at = now(), folder_key = p_folder, rel_path = p_rel, source_path = p_source, job = p_job,
        client = p_client, batch_id = NULL, accepted_at = NULL, recipe_fingerprint = NULL
      WHERE key = p_key;
  END IF;
  IF delta <> 0 THEN ${SPEND_CALL('p_folder', 'delta', '0', '0', '0', '0', '0')}
  END IF;
  IF moved <> 0 THEN ${SPEND_CALL('r.folder_key', '-moved', '0', '0', '0', '0', '0')}
  END IF;
  o_kind := 'claimed';
END
$fn$;
`;

export const OUTCOME_FUNCTION_7 = `
CREATE OR REPLACE FUNCTION batchroom_record_outcome(p_me text, p_folder text, p_key text, p_content text, p_workflow text,
  p_params text, p_source text, p_outcome text, p_outputs jsonb, p_execution text, p_charged numeric, p_reason text,
  p_failed text[]) RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  r record;
  before text := 'none';
  reserved numeric := 0;
  folder text := p_folder;
  processed_delta integer;
  failed_delta integer;
BEGIN
  -- A charge in a folder with a budget takes its turn with the folder's claims (the same lock, taken first as they
  -- take it): a charge above its reservation is then counted before the next claim checks the budget.
  IF p_charged > 0 AND EXISTS (SELECT 1 FROM batchroom_folders WHERE folder_key = p_folder AND budget IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(7319021, hashtext(p_folder));
  END IF;
  SELECT state, owner, credits_reserved, credits_charged, folder_key INTO r FROM batchroom_claims WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO batchroom_folders (folder_key) VALUES (p_folder) ON CONFLICT (folder_key) DO NOTHING;
    INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state)
      VALUES (p_key, p_folder, p_content, p_workflow, p_params, p_source, p_source, p_me, 'claimed');
  ELSE
    IF r.owner IS DISTINCT FROM p_me AND r.owner IS NOT NULL AND r.state <> 'unknown' THEN
      RETURN;
    END IF;
    -- The same outcome again: its first call committed but the reply was lost (record() keeps it pending and the
    -- heartbeat replays it). The row says so already (an outcome leaves nothing reserved); counting it again would
    -- charge the folder and the instance twice.
    IF r.owner = p_me AND r.state = p_outcome AND r.credits_reserved = 0 AND r.credits_charged = p_charged THEN
      RETURN;
    END IF;
    before := r.state;
    reserved := r.credits_reserved;
    folder := r.folder_key;
  END IF;
  UPDATE batchroom_claims SET state = p_outcome, outputs = p_outputs, execution_id = COALESCE(p_execution, execution_id),
      credits_charged = p_charged, credits_reserved = 0, reason = p_reason, owner = p_me, finished_at = now(), updated_at = now()
    WHERE key = p_key;
  processed_delta := (p_outcome = 'saved')::integer - (before = 'saved')::integer;
  failed_delta := (p_outcome = ANY(p_failed))::integer - (before = ANY(p_failed))::integer;
  ${SPEND_CALL('folder', 'p_charged - reserved', 'processed_delta', 'failed_delta', 'GREATEST(0, processed_delta)', 'GREATEST(0, failed_delta)', 'p_charged')}
END
$fn$;
`;

/** Folds each folder's and instance's per-connection rows into one (slot 0): run with the retention rule, daily. */
export const FOLD_SPEND = `
WITH gone AS (
  DELETE FROM batchroom_folder_spend WHERE slot <> 0 AND (folder_key, owner, slot) IN (
    SELECT folder_key, owner, slot FROM batchroom_folder_spend WHERE slot <> 0 AND updated_at < now() - interval '1 hour'
    FOR UPDATE SKIP LOCKED)
  RETURNING *)
INSERT INTO batchroom_folder_spend AS s (folder_key, owner, slot, committed, processed, failed, inst_processed, inst_failed, spent)
  SELECT folder_key, owner, 0, sum(committed), sum(processed), sum(failed), sum(inst_processed), sum(inst_failed), sum(spent)
  FROM gone GROUP BY folder_key, owner
ON CONFLICT (folder_key, owner, slot) DO UPDATE SET committed = s.committed + EXCLUDED.committed, processed = s.processed + EXCLUDED.processed,
  failed = s.failed + EXCLUDED.failed, inst_processed = s.inst_processed + EXCLUDED.inst_processed,
  inst_failed = s.inst_failed + EXCLUDED.inst_failed, spent = s.spent + EXCLUDED.spent, updated_at = now()`;
