import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { MIGRATIONS } from '../../../main/core/journal/migrations';
import { readItemWindow } from '../../../main/core/journal/item-window';

// Migration 15 (issue 34 #3, #4): a batch's counts per state are counters the triggers keep in the statement that
// inserts, moves or removes an item, and a filtered window ("Failed", "Saved") reads one index range. Real SQLite:
// the counters against a GROUP BY over the items after every kind of write, the migration on a journal of schema 14
// (rows kept, counters filled; nothing of it left when it fails half-way), and the query plans of the filtered pages.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });

function batchRecord(id: string): BatchRecord {
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

const stateAt = (i: number): NewItem['state'] => (i % 10 === 3 ? 'failed' : i % 3 === 0 ? 'saved' : 'pending');

function newItems(batchId: string, n: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${batchId}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/${batchId}/p${i}.jpg` }, relDir: '',
    contentHash: `${batchId}-hash-${i}`, state: stateAt(i), reason: null,
  }));
}

/** The counts a GROUP BY over the batch's items gives (what countByState read before migration 15). */
function grouped(path: string, batchId: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT state, COUNT(*) AS n FROM items WHERE batch_id = ? GROUP BY state`).all(batchId) as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  } finally {
    db.close();
  }
}

/** The counters themselves (batch_counts, migration 15), states with none left out. */
function counters(path: string, batchId: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT state, n FROM batch_counts WHERE batch_id = ? AND n > 0`).all(batchId) as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  } finally {
    db.close();
  }
}

describe('per-state counters (migration 15)', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-counts-'));
    journal = openJournal(dir);
  });
  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps countByState equal to the items after inserts, moves, bulk moves, refunds and compaction', () => {
    journal.createBatch(batchRecord('a'), newItems('a', 40));
    journal.createBatch(batchRecord('b'), newItems('b', 7));
    expect(counters(journal.path, 'a')).toEqual(grouped(journal.path, 'a'));
    expect(journal.countByState('a')).toEqual(grouped(journal.path, 'a'));
    // One item through the engine's writes, one refunded, a whole batch cancelled.
    journal.updateItem('a-1', { event: 'encode' });
    journal.updateItem('a-1', { event: 'submit', attempts: 1 }, { durable: true });
    journal.recordAccepted('a-1', 'exec-1', 2, new Date().toISOString());
    journal.updateItem('a-1', { progress: 50 });
    journal.updateItem('a-2', { event: 'encode' });
    journal.updateItem('a-2', { event: 'submit', attempts: 1 });
    journal.recordAccepted('a-2', 'exec-2', 2, new Date().toISOString());
    journal.recordRefund('a-2', 'refunded', new Date().toISOString());
    expect(journal.countByState('a')).toEqual(grouped(journal.path, 'a'));
    expect(journal.countByState('a')).toMatchObject({ submitted: 1, failed: 5 });
    journal.transitionAll('b', 'cancel');
    expect(journal.countByState('b')).toEqual(grouped(journal.path, 'b'));
    expect(journal.countByState('b').cancelled).toBe(4);
    expect(journal.countByState('b').pending).toBeUndefined();
    // An item removed by SQL the journal does not know of still leaves the counters right: they are triggers.
    const raw = new Database(journal.path);
    raw.prepare(`DELETE FROM items WHERE id = ?`).run('a-4');
    raw.close();
    expect(counters(journal.path, 'a')).toEqual(grouped(journal.path, 'a'));
    expect(counters(journal.path, 'b')).toEqual(grouped(journal.path, 'b'));
    expect(journal.countByState('a')).toEqual(grouped(journal.path, 'a'));
  });

  it('answers a filtered window\'s total from the counters and its page in queue order', () => {
    journal.createBatch(batchRecord('w'), newItems('w', 300));
    const failed = newItems('w', 300).filter((i) => i.state === 'failed').map((i) => i.id);
    const first = readItemWindow(journal, { batchId: 'w', filter: 'failed', offset: 0, limit: 20 });
    expect(first.total).toBe(failed.length);
    expect(first.items.map((i) => i.id)).toEqual(failed.slice(0, 20));
    const last = readItemWindow(journal, { batchId: 'w', filter: 'failed', offset: 20, limit: 20 });
    expect(last.items.map((i) => i.id)).toEqual(failed.slice(20));
    const savedIds = newItems('w', 300).filter((i) => i.state === 'saved').map((i) => i.id);
    const saved = readItemWindow(journal, { batchId: 'w', filter: 'saved', offset: 85, limit: 50 });
    expect(saved.total).toBe(savedIds.length);
    expect(saved.items.map((i) => i.id)).toEqual(savedIds.slice(85));
    expect(readItemWindow(journal, { batchId: 'w', filter: 'all', offset: 0, limit: 1 }).total).toBe(300);
    expect(readItemWindow(journal, { batchId: 'w', filter: 'skipped', offset: 0, limit: 10 })).toEqual({ total: 0, items: [] });
  });

  it('reads a filtered page of finished or moving items through one index range, never the batch', () => {
    journal.createBatch(batchRecord('p'), newItems('p', 5));
    const db = new Database(journal.path, { readonly: true });
    try {
      const plan = (sql: string, ...args: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
      const page = (term: string) => `SELECT id FROM items WHERE batch_id = ? AND state IN (?) AND ${term} ORDER BY position, rowid LIMIT 200 OFFSET 0`;
      const saved = plan(page(`state IN ('saved', 'skipped', 'cancelled')`), 'p', 'saved');
      expect(saved).toMatch(/USING INDEX items_settled \(batch_id=\? AND state=\?\)/);
      expect(saved).not.toMatch(/TEMP B-TREE/);
      const failed = plan(page(`state NOT IN ('saved', 'skipped', 'cancelled')`), 'p', 'failed');
      expect(failed).toMatch(/USING INDEX items_open \(batch_id=\? AND state=\?\)/);
      expect(failed).not.toMatch(/TEMP B-TREE/);
      expect(plan(`SELECT state, n FROM batch_counts WHERE batch_id = ? AND n > 0`, 'p')).toMatch(/SEARCH batch_counts USING PRIMARY KEY \(batch_id=\?\)/);
      // A summary's paid-elsewhere count (claims.ts, the same WHERE) reads only such items.
      expect(plan(`SELECT COUNT(*) AS n FROM items WHERE batch_id = ? AND claim_key IS NOT NULL
        AND state <> 'skipped' AND credits_charged = 0 AND (state = 'following' OR (attempts = 0 AND execution_id IS NOT NULL))`, 'p'))
        .toMatch(/USING (COVERING )?INDEX items_paid_elsewhere \(batch_id=\?\)/);
    } finally {
      db.close();
    }
  });
});

describe('migration 15 on a journal of schema 14', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-migrate15-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  /** A journal as the build before migration 15 left it: schema 14, two batches of items. */
  function schema14(): string {
    const path = join(dir, 'journal.db');
    const db = new Database(path);
    for (const [i, sql] of MIGRATIONS.slice(0, 14).entries()) { db.exec(sql); db.exec(`PRAGMA user_version = ${i + 1}`); }
    const at = new Date().toISOString();
    for (const [batchId, n] of [['old1', 25], ['old2', 4]] as const) {
      db.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state, created_at, updated_at, output_folder)
        VALUES (?, ?, 'color-grade', 'Color Grade', ?, 2, 'running', ?, ?, '/out')`).run(batchId, JSON.stringify(spec), JSON.stringify(workflow), at, at);
      for (const item of newItems(batchId, n)) {
        db.prepare(`INSERT INTO items (id, batch_id, position, display_name, sources_json, state, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
          .run(item.id, batchId, item.position, item.displayName, JSON.stringify(item.sources), item.state, at);
      }
    }
    db.close();
    return path;
  }

  const dump = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare(`SELECT * FROM items ORDER BY id`).all();
    } finally {
      db.close();
    }
  };

  it('keeps every row and fills the counters from them', () => {
    const path = schema14();
    const before = dump(path);
    const journal = openJournal(dir);
    try {
      expect(dump(path)).toEqual(before);
      expect(counters(path, 'old1')).toEqual(grouped(path, 'old1'));
      expect(counters(path, 'old2')).toEqual(grouped(path, 'old2'));
      expect(journal.countByState('old1')).toEqual(grouped(path, 'old1'));
      expect(journal.countByState('old2')).toEqual(grouped(path, 'old2'));
      // And keeps them from here on.
      journal.updateItem('old2-1', { event: 'encode' });
      expect(counters(path, 'old2')).toEqual(grouped(path, 'old2'));
    } finally {
      journal.close();
    }
    const db = new Database(path, { readonly: true });
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
    db.close();
  });

  it('is all or nothing: a failure at its last statement leaves schema 14 as it was', () => {
    const path = schema14();
    const before = dump(path);
    // Something in the way of migration 15's last index: it fails there, after the counters and triggers were made.
    const db = new Database(path);
    db.exec(`CREATE INDEX items_settled ON items(display_name)`);
    db.close();
    expect(() => openJournal(dir)).toThrow(/items_settled/);
    const after = new Database(path, { readonly: true });
    try {
      expect((after.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(14);
      expect(after.prepare(`SELECT name FROM sqlite_master WHERE name = 'batch_counts' OR type = 'trigger'`).all()).toEqual([]);
    } finally {
      after.close();
    }
    expect(dump(path)).toEqual(before);
  });
});
