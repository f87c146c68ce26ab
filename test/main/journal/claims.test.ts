import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { claimKeyOf, ClaimHeldError, ledgerKeyOfClaim } from '../../../main/core/journal/claims';

// The journal's claims: one row per paid unit, moved by its owner's item events in the same transaction; a submit of
// a unit another item holds open is refused and rolled back.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const KEY = claimKeyOf('a'.repeat(64), 'account-1');

function batchRecord(id: string, state: BatchRecord['state'] = 'running'): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 1, state, pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

const item = (id: string, claimKey: string | null = KEY): NewItem => ({
  id, position: 0, displayName: 'p.jpg', sources: { photo: '/in/p.jpg' }, relDir: '', contentHash: 'h', state: 'pending', reason: null, claimKey,
});

/** pending → encoding → submitting (the claim's `submit`). */
function submit(journal: Journal, id: string): void {
  journal.updateItem(id, { event: 'encode' });
  journal.updateItem(id, { event: 'submit' }, { durable: true });
}

describe('journal claims', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-claims-'));
    journal = openJournal(dir);
    journal.createBatch(batchRecord('b1'), [item('first')]);
    journal.createBatch(batchRecord('b2'), [item('second')]);
  });

  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('follows the owner through submit, accept, complete and save, with its execution, URLs and outputs', () => {
    expect(ledgerKeyOfClaim(KEY)).toBe('a'.repeat(64));
    submit(journal, 'first');
    expect(journal.claimGet(KEY)).toMatchObject({ state: 'submitting', ownerItemId: 'first', executionId: null });
    journal.recordAccepted('first', 'exec-1', 1, new Date().toISOString());
    expect(journal.claimGet(KEY)).toMatchObject({ state: 'accepted', executionId: 'exec-1', credits: 1 });
    journal.updateItem('first', { event: 'complete', resultUrls: ['https://r/1'], resultLabels: [null] });
    expect(journal.claimGet(KEY)).toMatchObject({ state: 'completed', resultUrls: ['https://r/1'] });
    journal.updateItem('first', { outputs: ['/out/p.jpg'] });
    journal.updateItem('first', { event: 'save' });
    expect(journal.claimGet(KEY)).toMatchObject({ state: 'saved', outputs: ['/out/p.jpg'], executionId: 'exec-1' });
  });

  it('refuses a second submit of an open unit and rolls it back: the item is still encoding, nothing journalled', () => {
    submit(journal, 'first');
    journal.updateItem('second', { event: 'encode' });
    const version = journal.claimsVersion();
    expect(() => journal.updateItem('second', { event: 'submit', attempts: 1 }, { durable: true })).toThrow(ClaimHeldError);
    expect(journal.getItem('second')).toMatchObject({ state: 'encoding', attempts: 0 });
    expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'first', state: 'submitting' });
    expect(journal.claimsVersion()).toBe(version);
    // It follows instead; its own events never move the owner's claim.
    journal.updateItem('second', { event: 'follow' });
    journal.updateItem('second', { event: 'cancel' });
    expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'first', state: 'submitting' });
  });

  it('a unit that was never sent, refused or refunded is free again; an unknown one only by the user', () => {
    submit(journal, 'first');
    journal.updateItem('first', { event: 'wait' }); // an answered refusal that costs nothing
    expect(journal.claimGet(KEY)!.state).toBe('claimed');
    journal.updateItem('first', { event: 'requeue' });
    expect(journal.claimGet(KEY)!.state).toBe('released');
    submit(journal, 'second');
    expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'second', state: 'submitting' });
    journal.updateItem('second', { event: 'answer-lost' });
    expect(journal.claimGet(KEY)!.state).toBe('unknown');
    // The balance proves it was not charged: the unit is released.
    journal.updateItem('second', { event: 'balance-uncharged' });
    expect(journal.claimGet(KEY)!.state).toBe('released');
  });

  it('a unit already paid for is not sent again by another item, unless that item was planned to pay again', () => {
    submit(journal, 'first');
    journal.recordAccepted('first', 'exec-1', 1, new Date().toISOString());
    journal.updateItem('first', { event: 'complete', resultUrls: ['https://r/1'], resultLabels: [null] });
    journal.updateItem('first', { event: 'save', outputs: ['/out/p.jpg'] });
    // Planned while the first was still running (a follower in the estimate), sent after it saved: refused.
    journal.updateItem('second', { event: 'encode' });
    expect(() => journal.updateItem('second', { event: 'submit' })).toThrow(ClaimHeldError);
    // --rerun / "Run them again" / results deleted: the planner marks the item with the claim it saw, and it pays again.
    const seen = journal.claimGet(KEY)!.updatedAt;
    journal.createBatch(batchRecord('b3'), [{ ...item('again'), payAgainOver: seen }, { ...item('again-too'), payAgainOver: seen }]);
    submit(journal, 'again');
    expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'again', state: 'submitting', outputs: [] });
    // A second "run again" planned against the same claim: that claim has moved since (paid again): refused.
    journal.recordAccepted('again', 'exec-2', 1, new Date().toISOString());
    journal.updateItem('again', { event: 'complete', resultUrls: ['https://r/2'], resultLabels: [null] });
    journal.updateItem('again', { event: 'save', outputs: ['/out/p (2).jpg'] });
    journal.updateItem('again-too', { event: 'encode' });
    expect(() => journal.updateItem('again-too', { event: 'submit' })).toThrow(ClaimHeldError);
  });

  it('a 5xx leaves the unit "may have been charged"; a studio refusal, a cancel or a put-back before sending frees it', () => {
    submit(journal, 'first');
    journal.updateItem('first', { event: 'server-error', reason: '502' });
    expect(journal.claimGet(KEY)!.state).toBe('unknown');
    journal.updateItem('second', { event: 'encode' });
    expect(() => journal.updateItem('second', { event: 'submit' })).toThrow(ClaimHeldError);
    // Its owner's own "Retry failed" is the user's choice: allowed.
    journal.updateItem('first', { event: 'retry' });
    submit(journal, 'first');
    journal.updateItem('first', { event: 'claimed-elsewhere' });
    expect(journal.claimGet(KEY)!.state).toBe('released');
  });

  it('reports who holds a unit: an open claim, or an open item of a running or paused batch', () => {
    expect(journal.claimHolder(KEY, 'second')).toMatchObject({ claim: null, item: { id: 'first', batchId: 'b1', state: 'pending' } });
    submit(journal, 'first');
    expect(journal.claimHolder(KEY, 'second').claim).toMatchObject({ ownerItemId: 'first' });
    // The owner itself is not its own holder.
    expect(journal.claimHolder(KEY, 'first').claim).toBeNull();
    journal.updateBatch('b1', { state: 'completed' });
    journal.updateBatch('b2', { state: 'completed' });
    expect(journal.claimHolder(KEY).item).toBeNull();
  });

  it('an item without a claim key (from before claims, or nothing to send) moves no claim', () => {
    journal.createBatch(batchRecord('b3'), [item('legacy', null)]);
    submit(journal, 'legacy');
    journal.recordAccepted('legacy', 'exec-l', 1, new Date().toISOString());
    expect(journal.claimGet(KEY)).toBeNull();
  });
});
