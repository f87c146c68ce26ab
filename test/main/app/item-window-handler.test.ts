import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { createItemWindowHandlers } from '../../../main/core/app/item-window-handler';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
const at = new Date().toISOString();
const batch: BatchRecord = { id: 'big', spec, workflow, creditCost: 1, state: 'paused', pausedReason: 'test', pauseCode: 'user', createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
const items: NewItem[] = Array.from({ length: 5000 }, (_, i) => ({
  id: `i${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/p${i}.jpg` }, relDir: '', contentHash: `h${i}`,
  state: i % 25 === 0 ? 'failed' : 'pending', reason: null,
}));

describe('batches:itemWindow over a real SQLite journal', () => {
  let dir: string;
  let journal: Journal;
  let dispatch: ReturnType<typeof createInvokeDispatcher>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-item-window-ipc-'));
    journal = openJournal(dir);
    journal.createBatch(batch, items);
    dispatch = createInvokeDispatcher(contract, createItemWindowHandlers(async () => journal) as never);
  });
  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the page asked for, checked against the contract: 200 rows of 5,000 by default', async () => {
    const answer = await dispatch('batches:itemWindow', { batchId: 'big', offset: 4900 });
    expect(answer.ok).toBe(true);
    const data = (answer as { data: { total: number; filter: string; offset: number; items: { position: number; state: string }[] } }).data;
    expect(data.total).toBe(5000);
    expect(data.filter).toBe('all');
    expect(data.offset).toBe(4900);
    expect(data.items.map((i) => i.position)).toEqual(Array.from({ length: 100 }, (_, k) => 4900 + k));
  });

  it('filters "failed" in main: the failed count and only failed rows', async () => {
    const answer = await dispatch('batches:itemWindow', { batchId: 'big', filter: 'failed', offset: 150, limit: 100 });
    const data = (answer as { data: { total: number; items: { position: number; state: string }[] } }).data;
    expect(data.total).toBe(200);
    expect(data.items.map((i) => i.position)).toEqual(Array.from({ length: 50 }, (_, k) => (150 + k) * 25));
    expect(data.items.every((i) => i.state === 'failed')).toBe(true);
  });

  it('refuses a page larger than 1,000 rows, an unknown filter and an unknown batch', async () => {
    expect(await dispatch('batches:itemWindow', { batchId: 'big', limit: 100_000 })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await dispatch('batches:itemWindow', { batchId: 'big', filter: 'done' })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await dispatch('batches:itemWindow', { batchId: 'nope' })).toMatchObject({ ok: false, code: 'not_found' });
  });
});
