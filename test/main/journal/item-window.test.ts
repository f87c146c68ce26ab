import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { readItemWindow } from '../../../main/core/journal/item-window';

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batchRecord(id: string): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 1, state: 'paused', pausedReason: 'test', pauseCode: 'user', createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

/** Every 10th item failed (positions 3, 13, 23…), every 4th running, the rest pending. */
const stateAt = (n: number): NewItem['state'] => (n % 10 === 3 ? 'failed' : n % 4 === 0 ? 'running' : 'pending');
const items = (prefix: string, n: number): NewItem[] => Array.from({ length: n }, (_, i) => ({
  id: `${prefix}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/p${i}.jpg` }, relDir: '', contentHash: `${prefix}${i}`, state: stateAt(i), reason: null,
}));

describe('readItemWindow (a real SQLite journal)', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-item-window-'));
    journal = openJournal(dir);
    journal.createBatch(batchRecord('b1'), items('a', 1000));
    journal.createBatch(batchRecord('b2'), items('b', 50));
  });
  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers one window of every item in queue order, and the batch\'s length', () => {
    const window = readItemWindow(journal, { batchId: 'b1', filter: 'all', offset: 990, limit: 200 });
    expect(window.total).toBe(1000);
    expect(window.items.map((i) => i.position)).toEqual(Array.from({ length: 10 }, (_, k) => 990 + k));
    expect(readItemWindow(journal, { batchId: 'b1', filter: 'pending', offset: 0, limit: 1 }).total).toBe(650);
    expect(readItemWindow(journal, { batchId: 'b1', filter: 'saved', offset: 0, limit: 10 })).toEqual({ total: 0, items: [] });
  });

  it('filters "failed" in the query: only failed items, the filtered total, pages that meet end to end', () => {
    const first = readItemWindow(journal, { batchId: 'b1', filter: 'failed', offset: 0, limit: 60 });
    const last = readItemWindow(journal, { batchId: 'b1', filter: 'failed', offset: 60, limit: 60 });
    expect(first.total).toBe(100);
    expect(first.items).toHaveLength(60);
    expect(last.items).toHaveLength(40);
    const positions = [...first.items, ...last.items].map((i) => i.position);
    expect(positions).toEqual(Array.from({ length: 100 }, (_, k) => k * 10 + 3));
    expect(new Set([...first.items, ...last.items].map((i) => i.state))).toEqual(new Set(['failed']));
  });

  it('"active" is the in-flight states; another batch\'s items never show', () => {
    const active = readItemWindow(journal, { batchId: 'b2', filter: 'active', offset: 0, limit: 1000 });
    expect(active.items.every((i) => i.batchId === 'b2' && i.state === 'running')).toBe(true);
    expect(active.total).toBe(13);
    expect(readItemWindow(journal, { batchId: 'b2', filter: 'failed', offset: 0, limit: 1000 }).total).toBe(5);
  });

  it('follows a state change: the item leaves "active" and joins "failed" in its queue place', () => {
    journal.updateItem('a-4', { event: 'execution-failed', reason: 'test' });
    const failed = readItemWindow(journal, { batchId: 'b1', filter: 'failed', offset: 0, limit: 5 });
    expect(failed.total).toBe(101);
    expect(failed.items.map((i) => i.id)).toEqual(['a-3', 'a-4', 'a-13', 'a-23', 'a-33']);
    expect(readItemWindow(journal, { batchId: 'b1', filter: 'active', offset: 0, limit: 1 }).total).toBe(249);
  });
});
