import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { claimKeyOf } from '../../../main/core/journal/claims';
import { doneKeyOf, savedEntry } from '../../../main/core/journal/done-ledger';
import { itemsOfBatch } from '../../../main/core/journal/item-pages';

// Compaction (journal/compact.ts) with a real SQLite journal: the saved and skipped items of an old finished batch
// leave; the done ledger, the claims, the report figures and the batch's counts stay; nothing still moving, nothing
// an outbox consumer has not read, nothing newer than asked is touched.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
const LATER = '2999-01-01T00:00:00.000Z';

function batchRecord(id: string): BatchRecord {
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

function newItems(batchId: string, n: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${batchId}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/${batchId}/p${i}.jpg` }, relDir: '',
    contentHash: `${batchId}-hash-${i}`, state: 'pending', reason: null, claimKey: claimKeyOf(doneKeyOf(spec, `${batchId}-hash-${i}`), 'account'),
  }));
}

/** Sends and saves an item as the engine does (its ledger entry in the save's transaction unless `noLedger`). */
function save(journal: Journal, item: NewItem, noLedger = false): void {
  const at = new Date().toISOString();
  journal.updateItem(item.id, { event: 'encode' });
  journal.updateItem(item.id, { event: 'submit', attempts: 1 }, { durable: true });
  journal.recordAccepted(item.id, `exec-${item.id}`, 2, at);
  journal.updateItem(item.id, { event: 'complete', progress: 100, resultUrls: [`https://r/${item.id}.jpg`], resultLabels: [null], completedAt: at });
  const outputs = [`/out/${item.id}.jpg`];
  journal.updateItem(item.id, { outputs });
  const entry = savedEntry(spec, { id: item.id, contentHash: item.contentHash!, sourcePath: item.sources.photo!, outputs, executionId: `exec-${item.id}` }, at);
  journal.updateItem(item.id, { event: 'save', completedAt: at }, noLedger ? {} : { ledger: entry });
}

describe('journal compaction', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-compact-'));
    journal = openJournal(dir);
  });

  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A finished batch: 4 saved (one whose ledger entry went missing), 1 skipped, and with `failed` 1 failed. */
  function finishedBatch(id: string, failed = false): NewItem[] {
    const items = newItems(id, failed ? 6 : 5);
    journal.createBatch(batchRecord(id), items);
    items.slice(0, 4).forEach((item, i) => save(journal, item, i === 3));
    const skipped = items[4]!;
    journal.updateItem(skipped.id, { event: 'encode' });
    journal.updateItem(skipped.id, { event: 'submit', attempts: 1 });
    journal.recordAccepted(skipped.id, `exec-${skipped.id}`, 2, new Date().toISOString());
    journal.updateItem(skipped.id, { event: 'complete', progress: 100, resultUrls: ['https://r/x.jpg'], completedAt: new Date().toISOString() });
    journal.updateItem(skipped.id, { event: 'save-skipped', reason: 'name taken', completedAt: new Date().toISOString() });
    if (failed) {
      journal.updateItem(items[5]!.id, { event: 'encode' });
      journal.updateItem(items[5]!.id, { event: 'encode-failed', reason: 'unreadable', completedAt: new Date().toISOString() });
    }
    journal.updateBatch(id, { state: 'completed' });
    journal.saveOutcomeCursor('events', journal.lastOutcomeSeq());
    return items;
  }

  it('removes saved and skipped items, keeping counts, the done ledger, claims and report figures', () => {
    const items = finishedBatch('b1');
    const counts = journal.countByState('b1');
    const progress = journal.progressSum('b1', ['saved', 'skipped']);
    const claims = items.map((i) => journal.claimGet(i.claimKey!));
    const report = journal.batchFacts({ from: null, to: null });
    const charged = journal.creditsCharged({ from: null, to: null });
    const outcomes = journal.outcomesAfter(0, 1000).length;
    expect(journal.ledgerGet(doneKeyOf(spec, items[3]!.contentHash!))).toBeNull();

    const result = journal.compact({ finishedBefore: LATER });

    expect(result).toMatchObject({ batchIds: ['b1'], itemsRemoved: 5 });
    expect(journal.listItems({ batchId: 'b1' }).items).toEqual([]);
    expect(journal.countByState('b1')).toEqual(counts);
    expect(journal.progressSum('b1', ['saved', 'skipped'])).toBe(progress);
    // Paid once: every saved photo is in the done ledger (the missing entry written), claims as they were.
    for (const item of items.slice(0, 4)) expect(journal.ledgerGet(doneKeyOf(spec, item.contentHash!))?.outcome).toBe('saved');
    expect(items.map((i) => journal.claimGet(i.claimKey!))).toEqual(claims);
    expect(journal.batchFacts({ from: null, to: null })).toEqual(report);
    expect(journal.creditsCharged({ from: null, to: null })).toBe(charged);
    expect(journal.outcomesAfter(0, 1000)).toHaveLength(outcomes);
    expect(journal.outcomesAfter(0, 1000).every((o) => o.outputs.length === 0)).toBe(true);
    // The outbox goes on numbering after what it kept.
    const next = newItems('b2', 1);
    journal.createBatch(batchRecord('b2'), next);
    journal.updateItem(next[0]!.id, { event: 'cancel' });
    expect(journal.lastOutcomeSeq()).toBe(outcomes + 1);
    // A second compaction finds nothing more to do.
    expect(journal.compact({ finishedBefore: LATER }).itemsRemoved).toBe(0);
  });

  it('leaves batches still moving, finished after the moment asked, or not yet read by an outbox consumer', () => {
    finishedBatch('done');
    const open = newItems('open', 2);
    journal.createBatch(batchRecord('open'), open);
    save(journal, open[0]!);
    journal.updateBatch('open', { state: 'completed' }); // completed, yet one item still pending: not finished
    expect(journal.compact({ finishedBefore: '2000-01-01T00:00:00.000Z' }).batchIds).toEqual([]);
    journal.saveOutcomeCursor('hotfolders', 1); // a consumer behind the batch's outcomes
    expect(journal.compact({ finishedBefore: LATER }).batchIds).toEqual([]);
    journal.saveOutcomeCursor('hotfolders', journal.lastOutcomeSeq());
    expect(journal.compact({ finishedBefore: LATER, dryRun: true })).toMatchObject({ batchIds: ['done'], itemsRemoved: 5 });
    expect(journal.listItems({ batchId: 'done' }).total).toBe(5);
    expect(journal.compact({ finishedBefore: LATER }).batchIds).toEqual(['done']);
    expect(journal.listItems({ batchId: 'open' }).total).toBe(2);
  });

  it('leaves whole a batch with an item that may still run (Retry failed names it against its siblings)', () => {
    // Removing the saved siblings of a failed item would let "Retry failed" under the overwrite policy take a
    // sibling's name and write over its original or its paid result (BatchOriginals and output-plan protect only
    // the items still listed).
    const items = finishedBatch('retryable', true);
    finishedBatch('clean');
    expect(journal.compact({ finishedBefore: LATER }).batchIds).toEqual(['clean']);
    expect(journal.listItems({ batchId: 'retryable' }).items.map((i) => i.id)).toEqual(items.map((i) => i.id));
    const cancelled = newItems('stopped', 2);
    journal.createBatch(batchRecord('stopped'), cancelled);
    save(journal, cancelled[0]!);
    journal.updateItem(cancelled[1]!.id, { event: 'cancel' });
    journal.updateBatch('stopped', { state: 'cancelled' });
    journal.saveOutcomeCursor('events', journal.lastOutcomeSeq());
    expect(journal.compact({ finishedBefore: LATER }).batchIds).toEqual([]);
    expect(journal.listItems({ batchId: 'stopped' }).total).toBe(2);
    // A photo rejected in Review: "Re-run rejected" needs its row.
    const reviewed = finishedBatch('reviewed');
    journal.updateItem(reviewed[0]!.id, { verdict: 'rejected' });
    expect(journal.compact({ finishedBefore: LATER }).batchIds).toEqual([]);
    expect(journal.listItems({ batchId: 'reviewed' }).total).toBe(5);
  });

  it('makes the file smaller', () => {
    for (let b = 0; b < 6; b++) finishedBatch(`b${b}`);
    const result = journal.compact({ finishedBefore: LATER });
    expect(result.itemsRemoved).toBe(30);
    expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
  });
});

describe('journal reads at scale', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-pages-'));
    journal = openJournal(dir);
  });

  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('pages through a batch once, in position order, whatever the page size', () => {
    journal.createBatch(batchRecord('big'), newItems('big', 2503));
    const ids = [...itemsOfBatch(journal, 'big', 1000)].map((i) => i.id);
    expect(ids).toHaveLength(2503);
    expect(new Set(ids).size).toBe(2503);
    expect(ids[2502]).toBe('big-2502');
    expect([...itemsOfBatch(journal, 'big', 7)].map((i) => i.id)).toEqual(ids);
  });

  it('finds a batch\'s next pending item and a unit\'s followers through the indexes of moving items only', () => {
    journal.createBatch(batchRecord('b'), newItems('b', 3));
    const db = new Database(join(dir, 'journal.db'), { readonly: true });
    try {
      const plan = (sql: string, ...args: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
      expect(plan(`SELECT id FROM items WHERE batch_id = ? AND state IN (?) AND state NOT IN ('saved', 'skipped', 'cancelled') ORDER BY position, rowid LIMIT 1`, 'b', 'pending'))
        .toMatch(/USING INDEX items_open/);
      expect(plan(`SELECT id FROM items WHERE claim_key = ? AND state = 'following' AND state NOT IN ('saved', 'skipped', 'cancelled')`, 'k'))
        .toMatch(/USING INDEX items_by_claim/);
      // A saved item is in neither index.
      const saved = newItems('s', 1);
      journal.createBatch(batchRecord('s'), saved);
      save(journal, saved[0]!);
      const inIndex = (name: string) => Number((db.prepare(`SELECT COUNT(*) AS n FROM items INDEXED BY ${name} WHERE ${name === 'items_open' ? 'batch_id = ?' : 'claim_key = ?'} AND state NOT IN ('saved', 'skipped', 'cancelled')`)
        .get(name === 'items_open' ? 's' : saved[0]!.claimKey) as { n: number }).n);
      expect(inIndex('items_open')).toBe(0);
      expect(inIndex('items_by_claim')).toBe(0);
    } finally {
      db.close();
    }
  });
});
