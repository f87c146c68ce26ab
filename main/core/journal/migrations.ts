// Versioned schema migrations, applied in order inside one transaction each; `PRAGMA user_version` records the last
// one applied. Never edit a released migration: add the next one.

export const MIGRATIONS: readonly string[] = [
  // 1: batches, items, executions, and the hot-folder ledger.
  `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    spec_json TEXT NOT NULL,
    workflow_id TEXT NOT NULL,
    workflow_name TEXT NOT NULL,
    workflow_json TEXT NOT NULL,
    credit_cost REAL NOT NULL,
    state TEXT NOT NULL,
    paused_reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    credits_spent REAL NOT NULL DEFAULT 0,
    budget REAL,
    output_folder TEXT NOT NULL
  );
  CREATE TABLE items (
    id TEXT PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    position INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    sources_json TEXT NOT NULL,
    rel_dir TEXT NOT NULL DEFAULT '',
    content_hash TEXT,
    state TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    reason TEXT,
    execution_id TEXT,
    result_urls_json TEXT NOT NULL DEFAULT '[]',
    outputs_json TEXT NOT NULL DEFAULT '[]',
    pending_temp TEXT,
    pending_final TEXT,
    credits_charged REAL NOT NULL DEFAULT 0,
    verdict TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    submitted_at TEXT,
    completed_at TEXT,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX items_by_batch ON items(batch_id, position);
  CREATE INDEX items_by_state ON items(state);
  CREATE UNIQUE INDEX items_by_execution ON items(execution_id) WHERE execution_id IS NOT NULL;
  CREATE TABLE executions (
    id TEXT PRIMARY KEY,
    item_id TEXT NOT NULL REFERENCES items(id),
    batch_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    credits REAL NOT NULL DEFAULT 0,
    error TEXT,
    completed_at TEXT
  );
  CREATE TABLE ledger (
    key TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    workflow_id TEXT NOT NULL,
    parameters_hash TEXT NOT NULL,
    source_path TEXT NOT NULL,
    outcome TEXT NOT NULL,
    outputs_json TEXT NOT NULL DEFAULT '[]',
    execution_id TEXT,
    item_id TEXT,
    hot_folder_id TEXT,
    recorded_at TEXT NOT NULL
  );
  `,
  // 2: the outcome outbox — each terminal outcome of each attempt of an item, once, in order — and where each
  // consumer (hot folders, notifications, the CLI summary) has read up to.
  `
  CREATE TABLE outcomes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id TEXT NOT NULL REFERENCES items(id),
    batch_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    outputs_json TEXT NOT NULL DEFAULT '[]',
    execution_id TEXT,
    credits_charged REAL NOT NULL DEFAULT 0,
    recorded_at TEXT NOT NULL,
    UNIQUE (item_id, attempt)
  );
  CREATE INDEX outcomes_by_batch ON outcomes(batch_id, seq);
  CREATE TABLE outcome_cursors (
    consumer TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  );
  `,
  // 3: the service's label of each result (a look's name), so several results of one photo are named after it.
  `
  ALTER TABLE items ADD COLUMN result_labels_json TEXT NOT NULL DEFAULT '[]';
  `,
  // 4: balance evidence (engine/balance-evidence.ts): the balance and the journal's known charges read together at a
  // quiet moment, and the lost submissions it has not judged yet. One row, its shape owned by the engine.
  `
  CREATE TABLE balance_evidence (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state_json TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
  // 5: why a paused batch is paused, as a closed code (shared/engine/model.ts PauseCode): exit codes, banners and
  // automatic resumes read the code; paused_reason stays the human message.
  `
  ALTER TABLE batches ADD COLUMN pause_code TEXT;
  `,
  // 6: an item the journal parked because the engine asked for a move the state machine does not allow
  // (journal/transitions.ts): the sentence shown with it; its state is left as it was.
  `
  ALTER TABLE items ADD COLUMN attention TEXT;
  `,
  // 7: one claim per paid unit (shared/engine/claim-states.ts): a photo's content, workflow, parameters and service
  // account, owned by the one item that sends it; every other item of the same unit follows it (journal/claims.ts).
  // items.claim_key is the unit an item would claim (null: nothing to send, e.g. skipped at planning).
  `
  CREATE TABLE claims (
    key TEXT PRIMARY KEY,
    ledger_key TEXT NOT NULL,
    owner_item_id TEXT NOT NULL,
    state TEXT NOT NULL,
    execution_id TEXT,
    result_urls_json TEXT NOT NULL DEFAULT '[]',
    result_labels_json TEXT NOT NULL DEFAULT '[]',
    outputs_json TEXT NOT NULL DEFAULT '[]',
    credits REAL NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX claims_by_owner ON claims(owner_item_id);
  ALTER TABLE items ADD COLUMN claim_key TEXT;
  CREATE INDEX items_by_claim ON items(claim_key) WHERE claim_key IS NOT NULL;
  DROP INDEX items_by_execution;
  CREATE INDEX items_by_execution ON items(execution_id) WHERE execution_id IS NOT NULL;
  `,
  // 8: the paid claim an item may pay again over (--rerun, "Run them again", results deleted, a hot folder's
  // reprocess): that claim's updated_at when the batch was planned. Null: it never sends a unit already paid for.
  `
  ALTER TABLE items ADD COLUMN pay_again_over TEXT;
  `,
  // 9: the submit queue's order across batches (journal/batch-order.ts): priority (higher first), then queue_order
  // (lower first). Batches already journalled keep the order they had: by creation.
  `
  ALTER TABLE batches ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE batches ADD COLUMN queue_order INTEGER NOT NULL DEFAULT 0;
  UPDATE batches SET queue_order = ordered.n
    FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, rowid) AS n FROM batches) AS ordered WHERE batches.id = ordered.id;
  `,
  // 10: the recipe a ledger entry's photo was done with (shared/recipes/fingerprint.ts), so `recipes show` can say
  // how many photos a recipe did. Null: no recipe, or recorded before recipes.
  `
  ALTER TABLE ledger ADD COLUMN recipe_fingerprint TEXT;
  CREATE INDEX ledger_recipe ON ledger(recipe_fingerprint) WHERE recipe_fingerprint IS NOT NULL;
  `,
  // 11: the job/client report reads a period (journal/report-reads.ts): outcomes by when they were recorded, charges
  // by when the service took them — without these it read every outcome and execution ever journalled.
  `
  CREATE INDEX outcomes_by_time ON outcomes(recorded_at);
  CREATE INDEX executions_by_time ON executions(created_at);
  `,
  // 12: chains (issue 32 #3): the result file a chain step saved, and the execution and result it came from, so the
  // next step sends that result's URL (fresh from the execution) instead of uploading the file (journal/chain-links.ts).
  `
  CREATE TABLE chain_links (
    path TEXT PRIMARY KEY,
    execution_id TEXT NOT NULL,
    result_index INTEGER NOT NULL,
    content_hash TEXT,
    recorded_at TEXT NOT NULL
  );
  `,
  // 13: the recipe a claim's unit was paid with (its owner's batch spec.recipe.fingerprint; shared/recipes/
  // fingerprint.ts), so a claim says which recipe paid it. Claims already there take it from their owner's batch.
  `
  ALTER TABLE claims ADD COLUMN recipe_fingerprint TEXT;
  UPDATE claims SET recipe_fingerprint = (SELECT json_extract(b.spec_json, '$.recipe.fingerprint')
    FROM items i JOIN batches b ON b.id = i.batch_id WHERE i.id = claims.owner_item_id);
  `,
  // 14: a small journal at 100k items (issue 34 #3, journal/compact.ts).
  // - Indexes only over items still moving (not saved, skipped or cancelled: SETTLED_SQL in journal/settled.ts, whose
  //   queries carry that very term so SQLite may use them): a finished item costs nothing in them, and the engine's
  //   "next pending item of this batch" no longer walks past every finished one. items_by_execution and
  //   claims_by_owner served no query.
  // - A compacted batch (journal/compact.ts) keeps its counts in compacted_json once its saved and skipped items are
  //   removed; outcomes and executions lose their foreign key to items so that the report rows of such an item stay.
  `
  DROP INDEX items_by_execution;
  DROP INDEX claims_by_owner;
  DROP INDEX items_by_claim;
  CREATE INDEX items_by_claim ON items(claim_key) WHERE claim_key IS NOT NULL AND state NOT IN ('saved', 'skipped', 'cancelled');
  CREATE INDEX items_open ON items(batch_id, state, position) WHERE state NOT IN ('saved', 'skipped', 'cancelled');
  ALTER TABLE batches ADD COLUMN compacted_json TEXT;
  CREATE TABLE outcomes_kept (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    outputs_json TEXT NOT NULL DEFAULT '[]',
    execution_id TEXT,
    credits_charged REAL NOT NULL DEFAULT 0,
    recorded_at TEXT NOT NULL,
    UNIQUE (item_id, attempt)
  );
  INSERT INTO outcomes_kept (seq, item_id, batch_id, attempt, state, reason, outputs_json, execution_id, credits_charged, recorded_at)
    SELECT seq, item_id, batch_id, attempt, state, reason, outputs_json, execution_id, credits_charged, recorded_at FROM outcomes;
  DROP TABLE outcomes;
  ALTER TABLE outcomes_kept RENAME TO outcomes;
  CREATE INDEX outcomes_by_batch ON outcomes(batch_id, seq);
  CREATE INDEX outcomes_by_time ON outcomes(recorded_at);
  CREATE TABLE executions_kept (
    id TEXT PRIMARY KEY,
    item_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    credits REAL NOT NULL DEFAULT 0,
    error TEXT,
    completed_at TEXT
  );
  INSERT INTO executions_kept SELECT id, item_id, batch_id, created_at, status, credits, error, completed_at FROM executions;
  DROP TABLE executions;
  ALTER TABLE executions_kept RENAME TO executions;
  CREATE INDEX executions_by_time ON executions(created_at);
  `,
  // 15: counts and filters at 100k items (issue 34 #3, #4).
  // - batch_counts: how many items of each batch are in each state, kept by triggers in the very statement that
  //   inserts, moves or removes an item (INSERT, UPDATE, DELETE and upserts, raw SQL included), so a batch summary
  //   reads a few rows instead of grouping the batch's items (countByState: 0.7 s at 100k under load). Filled from the
  //   items there now. Not kept by INSERT OR REPLACE / REPLACE INTO over an existing item: the row it deletes fires no
  //   DELETE trigger unless that connection set recursive_triggers (off by default, per connection), so its count
  //   would stay. Nothing writes items that way; a writer that must replace a row deletes it first.
  // - items_settled: the finished items (saved, skipped, cancelled) by batch, state and position — the complement of
  //   items_open — so "Saved" or "Skipped" pages are a range of one index (SETTLED_ONLY_SQL in journal/settled.ts).
  // - items_paid_elsewhere: the items another batch paid for (claims.ts countPaidElsewhere, whose WHERE is this
  //   index's term for term), so a summary's cost line reads those few, not the batch (142 → <1 ms at 100k).
  `
  CREATE TABLE batch_counts (
    batch_id TEXT NOT NULL,
    state TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (batch_id, state)
  ) WITHOUT ROWID;
  INSERT INTO batch_counts (batch_id, state, n) SELECT batch_id, state, COUNT(*) FROM items GROUP BY batch_id, state;
  CREATE TRIGGER items_count_insert AFTER INSERT ON items BEGIN
    INSERT INTO batch_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
      ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER items_count_delete AFTER DELETE ON items BEGIN
    UPDATE batch_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
  END;
  CREATE TRIGGER items_count_move AFTER UPDATE OF state, batch_id ON items
    WHEN new.state IS NOT old.state OR new.batch_id IS NOT old.batch_id BEGIN
    UPDATE batch_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
    INSERT INTO batch_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
      ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
  END;
  CREATE INDEX items_settled ON items(batch_id, state, position) WHERE state IN ('saved', 'skipped', 'cancelled');
  CREATE INDEX items_paid_elsewhere ON items(batch_id) WHERE claim_key IS NOT NULL AND state <> 'skipped' AND credits_charged = 0
    AND (state = 'following' OR (attempts = 0 AND execution_id IS NOT NULL));
  `,
];
