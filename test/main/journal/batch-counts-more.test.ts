import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';

// Review of 7275904: batch_counts against a GROUP BY after the writes the first test file does not make — a real
// compaction, re-ordering, one statement moving many rows, rows moved between batches. (INSERT OR REPLACE over an
// existing item is not counted — no writer does it; migrations.ts, migration 15, says why.)

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
const old = new Date(Date.now() - 86_400_000).toISOString();
const batchRecord = (id: string, state: BatchRecord['state'] = 'running'): BatchRecord => ({
  id, spec, workflow, creditCost: 2, state, pausedReason: null, pauseCode: null, createdAt: old, updatedAt: old, creditsSpent: 0, budget: null, outputFolder: '/out',
});
const items = (batchId: string, n: number, state: (i: number) => NewItem['state']): NewItem[] => Array.from({ length: n }, (_, i) => ({
  id: `${batchId}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/${batchId}/p${i}.jpg` }, relDir: '', contentHash: `${batchId}-h${i}`, state: state(i), reason: null,
}));

function both(path: string, batchId: string): { grouped: Record<string, number>; counters: Record<string, number> } {
  const db = new Database(path, { readonly: true });
  try {
    const g = db.prepare(`SELECT state, COUNT(*) AS n FROM items WHERE batch_id = ? GROUP BY state`).all(batchId) as { state: string; n: number }[];
    const c = db.prepare(`SELECT state, n FROM batch_counts WHERE batch_id = ? AND n <> 0`).all(batchId) as { state: string; n: number }[];
    return { grouped: Object.fromEntries(g.map((r) => [r.state, Number(r.n)])), counters: Object.fromEntries(c.map((r) => [r.state, Number(r.n)])) };
  } finally {
    db.close();
  }
}
const expectExact = (path: string, batchId: string) => { const { grouped, counters } = both(path, batchId); expect(counters).toEqual(grouped); };

describe('batch_counts under every kind of write', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-counts-more-')); journal = openJournal(dir); });
  afterEach(async () => { journal.close(); await rm(dir, { recursive: true, force: true }); });

  it('stays exact through a real compaction, and countByState adds what it removed', () => {
    journal.createBatch(batchRecord('c', 'completed'), items('c', 30, (i) => (i % 2 ? 'saved' : 'skipped')));
    const before = journal.countByState('c');
    const result = journal.compact({ finishedBefore: new Date().toISOString(), vacuum: false });
    expect(result.itemsRemoved).toBe(30);
    expectExact(journal.path, 'c');
    expect(journal.countByState('c')).toEqual(before);
    expect(journal.listItems({ batchId: 'c', states: ['saved'] })).toEqual({ total: 0, items: [] });
  });

  it('stays exact when one statement moves many rows, and when rows move between batches', () => {
    journal.createBatch(batchRecord('x'), items('x', 20, () => 'pending'));
    journal.createBatch(batchRecord('y'), items('y', 5, () => 'failed'));
    journal.setPositions('x', items('x', 20, () => 'pending').map((i) => i.id).reverse());
    const raw = new Database(journal.path);
    raw.prepare(`UPDATE items SET state = CASE WHEN position % 2 = 0 THEN 'failed' ELSE 'saved' END WHERE batch_id = ?`).run('x');
    raw.prepare(`UPDATE items SET batch_id = 'y' WHERE batch_id = 'x' AND position < 4`).run();
    raw.close();
    expectExact(journal.path, 'x');
    expectExact(journal.path, 'y');
    const failedY = journal.listItems({ batchId: 'y', states: ['failed'], offset: 0, limit: 3 });
    expect(failedY.total).toBe(both(journal.path, 'y').grouped.failed);
  });
});
