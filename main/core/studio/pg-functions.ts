// Studio ledger migration 5 (pg-migrations.ts): a claim and an outcome each become one statement, a PL/pgSQL
// function, instead of 5–6 round trips in a transaction. Measured (bench/scale-studio.ts): with three instances on
// one folder every claim and every outcome takes the folder's row lock (the shared budget), and the TypeScript
// transactions held it across a network round trip — to COMMIT, and in an outcome across two — so every claim in
// the folder queued behind another machine's next packet. In a function the lock lives only while the server runs
// it. The rules are the ones pg-claims.ts had (its comments still say why); the state lists come in as parameters
// from shared/engine/claim-states.ts, so that table stays the one place they are spelled. Released SQL: never edit
// it, replace the function in a later migration.

export const CLAIM_FUNCTION = `
CREATE OR REPLACE FUNCTION batchroom_claim(p_me text, p_key text, p_folder text, p_content text, p_workflow text, p_params text,
  p_rel text, p_source text, p_cost numeric, p_job text, p_client text, p_done text[], p_max_attempts integer, p_tolerance numeric,
  OUT o_kind text, OUT o_state text, OUT o_owner text, OUT o_budget numeric, OUT o_committed numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  r record;
  f record;
  existed boolean;
  owner_gone boolean;
  abandoned boolean;
  retryable boolean;
  delta numeric;
BEGIN
  INSERT INTO batchroom_folders (folder_key) VALUES (p_folder) ON CONFLICT (folder_key) DO NOTHING;
  -- The row is locked first and its owner's lease read after, in a statement of its own. Read in one statement (a
  -- LEFT JOIN … FOR UPDATE OF c, as schema 4 did), a row another instance claimed while this one waited on its lock
  -- was re-checked against the old owner's instance row, came back with no instance, and a live claim was taken as
  -- abandoned (bench/scale-studio.ts hit it; test/main/studio/pg-scale.test.ts).
  SELECT state, owner, attempts, credits_reserved INTO r FROM batchroom_claims WHERE key = p_key FOR UPDATE;
  existed := FOUND;
  IF existed THEN
    owner_gone := NOT EXISTS (SELECT 1 FROM batchroom_instances WHERE id = r.owner AND lease_until >= now());
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
    delta := p_cost;
  ELSE
    IF r.state = ANY(p_done) THEN
      o_kind := 'done'; o_state := r.state;
      RETURN;
    END IF;
    abandoned := r.state = 'claimed' AND owner_gone;
    retryable := r.state = 'failed' AND r.attempts < p_max_attempts AND r.owner IS DISTINCT FROM p_me;
    IF NOT abandoned AND NOT retryable THEN
      o_kind := 'taken'; o_state := r.state; o_owner := r.owner;
      RETURN;
    END IF;
    delta := p_cost - CASE WHEN abandoned THEN r.credits_reserved ELSE 0 END;
  END IF;
  UPDATE batchroom_folders SET credits_committed = credits_committed + delta, updated_at = now()
    WHERE folder_key = p_folder AND (budget IS NULL OR delta <= 0 OR credits_committed + delta <= budget + p_tolerance)
    RETURNING budget, credits_committed INTO f;
  IF NOT FOUND THEN
    -- No room: the claim is not made (a row inserted above goes again, as the transaction's rollback did).
    IF NOT existed THEN DELETE FROM batchroom_claims WHERE key = p_key; END IF;
    SELECT budget, credits_committed INTO f FROM batchroom_folders WHERE folder_key = p_folder;
    o_kind := 'budget'; o_budget := f.budget; o_committed := f.credits_committed;
    RETURN;
  END IF;
  IF existed THEN
    UPDATE batchroom_claims SET owner = p_me, state = 'claimed', attempts = attempts + CASE WHEN retryable THEN 1 ELSE 0 END,
        credits_reserved = p_cost, credits_charged = 0, execution_id = NULL, outputs = '[]', reason = NULL, finished_at = NULL,
        claimed_at = now(), updated_at = now(), folder_key = p_folder, rel_path = p_rel, source_path = p_source, job = p_job,
        client = p_client, batch_id = NULL, accepted_at = NULL, recipe_fingerprint = NULL
      WHERE key = p_key;
  END IF;
  o_kind := 'claimed';
END
$fn$;
`;

export const OUTCOME_FUNCTION = `
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
  INSERT INTO batchroom_folders (folder_key) VALUES (p_folder) ON CONFLICT (folder_key) DO NOTHING;
  SELECT state, owner, credits_reserved, folder_key INTO r FROM batchroom_claims WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state)
      VALUES (p_key, p_folder, p_content, p_workflow, p_params, p_source, p_source, p_me, 'claimed');
  ELSE
    IF r.owner IS DISTINCT FROM p_me AND r.owner IS NOT NULL AND r.state <> 'unknown' THEN
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
  UPDATE batchroom_instances SET processed = processed + GREATEST(0, processed_delta), failed = failed + GREATEST(0, failed_delta),
      credits_spent = credits_spent + p_charged
    WHERE id = p_me;
  UPDATE batchroom_folders SET credits_committed = GREATEST(0, credits_committed + p_charged - reserved),
      processed = processed + processed_delta, failed = failed + failed_delta, updated_at = now()
    WHERE folder_key = folder;
END
$fn$;
`;
