import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { claimKeyOf } from '../../../main/core/journal/claims';
import { journalPlanLookup } from '../../../main/core/engine/plan-lookup';

// Issue 34 #1: the planner asks who holds each photo's unit. With no batch running it asks the claim alone (one query a
// photo, not two), and answers exactly what the journal's claimHolder answers: an open claim, or an open item of a
// running batch once one runs (seen within 256 photos).

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const client = { accountId: 'account-1', baseUrl: 'http://127.0.0.1:1' };
const keyOf = (n: number) => claimKeyOf(n.toString(16).padStart(64, '0'), 'account-1');

function batchRecord(id: string): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 1, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}
const item = (id: string, key: string, position = 0): NewItem => ({
  id, position, displayName: `${id}.jpg`, sources: { photo: `/in/${id}.jpg` }, relDir: '', contentHash: 'h', state: 'pending', reason: null, claimKey: key,
});

/** The journal, counting the planner's two-query holder look-ups. */
function counted(journal: Journal): { journal: Journal; holderQueries: () => number } {
  let n = 0;
  const proxy = new Proxy(journal, {
    get: (target, prop, receiver) => (prop === 'claimHolder' ? (key: string) => (n++, target.claimHolder(key)) : Reflect.get(target, prop, receiver)),
  });
  return { journal: proxy, holderQueries: () => n };
}

describe('journalPlanLookup holder', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-plan-lookup-'));
    journal = openJournal(dir);
  });
  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('asks the claim alone while no batch runs, and still sees an open claim of a paused batch', () => {
    journal.createBatch(batchRecord('b1'), [item('sent', keyOf(1))]);
    journal.updateItem('sent', { event: 'encode' });
    journal.updateItem('sent', { event: 'submit' }, { durable: true });
    journal.updateBatch('b1', { state: 'paused', pausedReason: 'paused by the user' });
    const { journal: watched, holderQueries } = counted(journal);
    const lookup = journalPlanLookup(watched, client);
    const held = lookup.holder(keyOf(1));
    expect(held.claim).toMatchObject({ ownerItemId: 'sent', state: 'submitting' });
    expect(held).toEqual(journal.claimHolder(keyOf(1)));
    for (let n = 2; n < 1_000; n++) expect(lookup.holder(keyOf(n))).toEqual({ claim: null, item: null });
    expect(holderQueries()).toBe(0);
  });

  it('answers the journal\'s holder while a batch runs, and sees a batch started meanwhile within 256 photos', () => {
    const { journal: watched, holderQueries } = counted(journal);
    const lookup = journalPlanLookup(watched, client);
    expect(lookup.holder(keyOf(5000))).toEqual({ claim: null, item: null });
    journal.createBatch(batchRecord('b2'), Array.from({ length: 300 }, (_, i) => item(`p${i}`, keyOf(i), i)));
    const answers = Array.from({ length: 300 }, (_, i) => lookup.holder(keyOf(i)));
    const firstSeen = answers.findIndex((a) => a.item !== null);
    expect(firstSeen).toBeGreaterThanOrEqual(0);
    expect(firstSeen).toBeLessThan(256);
    for (const [i, answer] of answers.entries()) if (i >= firstSeen) expect(answer).toEqual(journal.claimHolder(keyOf(i)));
    expect(answers[299]!.item).toMatchObject({ id: 'p299', batchId: 'b2' });
    expect(holderQueries()).toBe(300 - firstSeen);
  });
});
