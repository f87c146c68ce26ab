import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../../shared/engine/item-states';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { ledgerKey, openJournal, parametersHash, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { MIGRATIONS } from '../../../main/core/journal/migrations';

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batchRecord(id: string): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), creditsSpent: 0, budget: null, outputFolder: '/out' };
}

function items(n: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `item-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/p${i}.jpg` }, relDir: '', contentHash: `h${i}`, state: 'pending', reason: null,
  }));
}

describe('journal', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-journal-'));
    journal = openJournal(dir);
  });

  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a batch and its items\' first moves in one transaction: all of it, or none of it', () => {
    expect(() => journal.createBatch(batchRecord('b-none'), items(2), () => {
      journal.updateItem('item-0', { event: 'export-result', executionId: 'e0', resultUrls: ['http://x/0.jpg'] });
      throw new Error('killed between the two writes');
    })).toThrow('killed between');
    expect(journal.getBatch('b-none')).toBeNull();
    expect(journal.getItem('item-0')).toBeNull();
    journal.createBatch(batchRecord('b-all'), items(2), () => {
      for (const id of ['item-0', 'item-1']) journal.updateItem(id, { event: 'export-result', executionId: `e-${id}`, resultUrls: ['http://x/r.jpg'] });
    });
    expect(journal.countByState('b-all')).toEqual({ downloading: 2 });
  });

  it('uses WAL and records the schema version', () => {
    const db = new Database(join(dir, 'journal.db'));
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
    db.close();
  });

  it('refuses a journal written by a newer version', () => {
    journal.close();
    const db = new Database(join(dir, 'journal.db'));
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openJournal(dir)).toThrow(/newer Batchroom/);
    journal = openJournal(join(dir, 'other'));
  });

  it('stores batches and items and survives reopening', () => {
    journal.createBatch(batchRecord('b1'), items(3));
    journal.close();
    journal = openJournal(dir);
    expect(journal.getBatch('b1')?.workflow.name).toBe('Color Grade');
    const page = journal.listItems({ batchId: 'b1' });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.id)).toEqual(['item-0', 'item-1', 'item-2']);
    expect(page.items[0]).not.toHaveProperty('_metadata');
  });

  it('records acceptance and refunds atomically with the batch spend', () => {
    journal.createBatch(batchRecord('b1'), items(2));
    journal.recordAccepted('item-0', 'exe_1', 2, new Date().toISOString(), 'adopt');
    journal.recordAccepted('item-1', 'exe_2', 2, new Date().toISOString(), 'adopt');
    expect(journal.getBatch('b1')?.creditsSpent).toBe(4);
    expect(journal.getItem('item-0')).toMatchObject({ state: 'submitted', executionId: 'exe_1', creditsCharged: 2 });
    journal.recordRefund('item-1', 'failed on the service', new Date().toISOString());
    expect(journal.getBatch('b1')?.creditsSpent).toBe(2);
    expect(journal.getItem('item-1')).toMatchObject({ state: 'failed', creditsCharged: 0, reason: 'failed on the service' });
    expect(journal.listExecutions('b1').map((e) => e.id)).toEqual(['exe_1', 'exe_2']);
  });

  it('moves states only along the state machine: an illegal event throws under test and changes nothing', () => {
    journal.createBatch(batchRecord('b1'), items(1));
    expect(() => journal.updateItem('item-0', { event: 'save', outputs: ['/out/x.jpg'] })).toThrow(IllegalTransitionError);
    expect(() => journal.recordRefund('item-0', 'no', new Date().toISOString())).toThrow(/pending --execution-failed-->/);
    expect(journal.getItem('item-0')).toMatchObject({ state: 'pending', outputs: [] });
    expect(journal.transitionAll('b1', 'retry')).toEqual([]);
    journal.updateItem('item-0', { event: 'encode' });
    expect(journal.getItem('item-0')?.state).toBe('encoding');
  });

  it('a requeued item drops the encoding phase its row said ("Ready to send") unless the change gives a reason', () => {
    journal.createBatch(batchRecord('b1'), items(2));
    for (const id of ['item-0', 'item-1']) journal.updateItem(id, { event: 'encode', reason: 'Ready to send: waiting for a free slot' });
    journal.updateItem('item-0', { event: 'requeue' });
    expect(journal.transitionAll('b1', 'requeue')).toEqual(['item-1']);
    expect([journal.getItem('item-0')?.reason, journal.getItem('item-1')?.reason]).toEqual([null, null]);
    journal.updateItem('item-0', { event: 'encode' });
    journal.updateItem('item-0', { event: 'requeue', reason: 'said by the caller' });
    expect(journal.getItem('item-0')).toMatchObject({ state: 'pending', reason: 'said by the caller' });
  });

  it('never lets two items hold the same execution id', () => {
    journal.createBatch(batchRecord('b1'), items(2));
    journal.recordAccepted('item-0', 'exe_1', 2, new Date().toISOString(), 'adopt');
    expect(() => journal.recordAccepted('item-1', 'exe_1', 2, new Date().toISOString(), 'adopt')).toThrow(/UNIQUE/);
    expect(journal.getItem('item-1')?.state).toBe('pending');
    expect(journal.getBatch('b1')?.creditsSpent).toBe(2);
  });

  it('filters, counts, transitions in bulk and reorders', () => {
    journal.createBatch(batchRecord('b1'), items(5));
    for (const event of ['encode', 'submit'] as const) journal.updateItem('item-0', { event });
    journal.recordAccepted('item-0', 'exe_0', 1, new Date().toISOString());
    journal.updateItem('item-0', { event: 'complete' });
    journal.updateItem('item-0', { event: 'save', outputs: ['/out/a.jpg'] });
    journal.recordAccepted('item-1', 'exe_1', 1, new Date().toISOString(), 'adopt');
    journal.updateItem('item-1', { event: 'progress', progress: 50 }, { durable: true });
    expect(journal.countByState('b1')).toEqual({ saved: 1, running: 1, pending: 3 });
    expect(journal.progressSum('b1', ['running'])).toBe(50);
    expect(journal.listItems({ batchId: 'b1', states: ['pending'], limit: 2 }).items.map((i) => i.id)).toEqual(['item-2', 'item-3']);
    journal.setPositions('b1', ['item-4', 'item-3', 'item-2', 'item-1', 'item-0']);
    expect(journal.itemsInStates('b1', ['pending']).map((i) => i.id)).toEqual(['item-4', 'item-3', 'item-2']);
    expect(journal.transitionAll('b1', 'cancel', { reason: 'cancelled by you' }).sort()).toEqual(['item-2', 'item-3', 'item-4']);
    expect(journal.countByState('b1').cancelled).toBe(3);
    expect(journal.getItem('item-0')?.outputs).toEqual(['/out/a.jpg']);
  });

  it('keeps a hot-folder ledger keyed by content, workflow and parameters', () => {
    const paramsA = parametersHash({ texts: { look: 'warm' }, globalOverrides: { imageSize: '2K' } });
    const paramsB = parametersHash({ globalOverrides: { imageSize: '2K' }, texts: { look: 'warm' } });
    expect(paramsA).toBe(paramsB);
    expect(parametersHash({ texts: { look: 'cool' } })).not.toBe(paramsA);
    const key = ledgerKey('sha-abc', 'color-grade', paramsA);
    expect(journal.ledgerHas(key)).toBe(false);
    journal.ledgerRecord({ key, contentHash: 'sha-abc', workflowId: 'color-grade', parametersHash: paramsA, sourcePath: '/in/a.jpg', outcome: 'saved', outputs: ['/out/a.jpg'], executionId: 'exe_1', itemId: null, hotFolderId: 'hf1' });
    expect(journal.ledgerHas(key)).toBe(true);
    expect(journal.ledgerGet(key)).toMatchObject({ outcome: 'saved', outputs: ['/out/a.jpg'], hotFolderId: 'hf1' });
    journal.ledgerRecord({ key, contentHash: 'sha-abc', workflowId: 'color-grade', parametersHash: paramsA, sourcePath: '/in/renamed.jpg', outcome: 'saved', outputs: [], executionId: null, itemId: null, hotFolderId: 'hf1' });
    expect(journal.ledgerGet(key)?.sourcePath).toBe('/in/renamed.jpg');
  });

  it('marks an item saved and records its done-ledger entry in one transaction (a crash keeps both or neither)', () => {
    journal.createBatch(batchRecord('b1'), items(2));
    const toDownloading = (id: string, exe: string) => {
      for (const event of ['encode', 'submit'] as const) journal.updateItem(id, { event });
      journal.recordAccepted(id, exe, 1, new Date().toISOString());
      journal.updateItem(id, { event: 'complete' });
    };
    toDownloading('item-0', 'exe_0');
    toDownloading('item-1', 'exe_1');
    const params = parametersHash({});
    const entry = (id: string, contentHash: string) => ({
      key: ledgerKey(contentHash, 'color-grade', params), contentHash, workflowId: 'color-grade', parametersHash: params,
      sourcePath: `/in/${id}.jpg`, outcome: 'saved' as const, outputs: ['/out/a.jpg'], executionId: 'exe_0', itemId: id, hotFolderId: null,
    });
    journal.updateItem('item-0', { event: 'save', outputs: ['/out/a.jpg'] }, { ledger: entry('item-0', 'h0') });
    expect(journal.getItem('item-0')?.state).toBe('saved');
    expect(journal.ledgerGet(entry('item-0', 'h0').key)?.itemId).toBe('item-0');
    // A ledger write that fails (here: a NOT NULL column) takes the state change back with it.
    const broken = { ...entry('item-1', 'h1'), sourcePath: null as unknown as string };
    expect(() => journal.updateItem('item-1', { event: 'save', outputs: ['/out/b.jpg'] }, { ledger: broken })).toThrow(/NOT NULL/);
    expect(journal.getItem('item-1')?.state).toBe('downloading');
    expect(journal.ledgerHas(broken.key)).toBe(false);
    expect(journal.outcomesAfter(0).filter((o) => o.itemId === 'item-1')).toEqual([]);
  });

  it('handles 10,000 items without a per-item transaction each', () => {
    const start = journal.listBatches().length;
    journal.createBatch(batchRecord('big'), items(10_000).map((i) => ({ ...i, id: `big-${i.id}` })));
    expect(journal.listBatches().length).toBe(start + 1);
    expect(journal.listItems({ batchId: 'big', offset: 9_990, limit: 50 }).items).toHaveLength(10);
  });
});
