import { describe, expect, it } from 'vitest';
import { ITEM_STATES, PAUSED_BY_USER, type BatchSummary, type ItemState } from '../../shared/engine/model';
import { batchAttention, hotFolderRunAttention, shouldRingBell } from '../../shared/notify/attention';

function batch(extra: Omit<Partial<BatchSummary>, 'counts'> & { counts?: Partial<Record<ItemState, number>> }): BatchSummary {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, extra.counts?.[s] ?? 0])) as BatchSummary['counts'];
  return {
    id: 'b1', workflowId: 'wf', workflowName: 'Relight', state: 'running', pausedReason: null, pauseCode: null, createdAt: '2026-11-27T10:00:00Z',
    total: 25, progress: 0.5, etaMs: null, creditCost: 25, unitCost: 1, trialRest: null, creditsSpent: 10, budget: null, outputFolder: '/out', ...extra, counts,
  };
}

describe('batchAttention', () => {
  it('says a batch ended with what was saved, failed and spent', () => {
    const done = batchAttention(batch({}), batch({ state: 'completed', counts: { saved: 24, failed: 1 }, creditsSpent: 24 }));
    expect(done).toMatchObject({ kind: 'batch-ended', title: 'Batch done — Relight', body: '24 saved, 1 failed · 24 credits', batchId: 'b1', needsAction: true });
    const clean = batchAttention(batch({}), batch({ state: 'completed', counts: { saved: 3 }, creditsSpent: 3 }), { credits: 'test' });
    expect(clean).toMatchObject({ body: '3 saved · 3 free test credits', needsAction: false });
    expect(batchAttention(batch({}), batch({ state: 'cancelled', counts: { saved: 2, cancelled: 20 }, creditsSpent: 2 }))).toMatchObject({ title: 'Batch cancelled — Relight', body: '2 saved · 2 credits' });
  });

  it('names results that may have been charged without arriving', () => {
    const a = batchAttention(batch({}), batch({ state: 'completed', counts: { saved: 7, unknown: 1, 'charged-no-result': 1 }, creditsSpent: 9 }));
    expect(a?.body).toBe('7 saved, 2 may be charged without a result · 9 credits');
    expect(a?.needsAction).toBe(true);
  });

  it('says nothing for a batch seen first, a state that did not change, or a hot folder batch ending', () => {
    expect(batchAttention(undefined, batch({ state: 'completed' }))).toBeNull();
    expect(batchAttention(batch({ state: 'completed' }), batch({ state: 'completed' }))).toBeNull();
    expect(batchAttention(batch({}), batch({ progress: 0.9 }))).toBeNull();
    expect(batchAttention(batch({}), batch({ state: 'completed' }), { hotFolder: true })).toBeNull();
  });

  it('tells pauses for money, an outage, the key and the disk — never a pause the user pressed', () => {
    const pause = (pauseCode: BatchSummary['pauseCode'], pausedReason: string) => batchAttention(batch({}), batch({ state: 'paused', pauseCode, pausedReason }));
    expect(pause('user', PAUSED_BY_USER)).toBeNull();
    expect(pause('insufficient-credits', 'Insufficient credits: 1 left, 4 needed')).toMatchObject({
      kind: 'batch-paused', title: 'Batch paused: out of credits', body: 'Relight: Insufficient credits: 1 left, 4 needed', batchId: 'b1', needsAction: true,
    });
    expect(pause('budget', 'x')?.title).toBe('Batch paused: budget reached');
    // The engine's token is not shown: a sentence that stays true while the notification sits in the centre.
    expect(pause('service-unreachable', 'service-unreachable')).toMatchObject({
      title: 'Batch paused: the service is not answering', body: "Relight: can't reach the service — the batch resumes by itself once it answers again",
    });
    expect(pause('output-unwritable', 'Output disk full')?.title).toBe('Batch paused: results cannot be written');
    expect(pause('unauthorized', 'x')?.title).toBe('Batch paused: the API key was rejected');
    // Still paused for the same reason: said once. For another reason (outage → out of credits): said again.
    const outage = batch({ state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'x' });
    expect(batchAttention(outage, outage)).toBeNull();
    expect(batchAttention(outage, batch({ state: 'paused', pauseCode: 'insufficient-credits', pausedReason: 'y' }))?.kind).toBe('batch-paused');
  });
});

describe('hotFolderRunAttention', () => {
  it('says a run that did something, by the folder name, and opens its last batch', () => {
    expect(hotFolderRunAttention({ path: '/shoots/inbox/', processed: 12, failed: 1, creditsSpent: 12, lastBatchId: 'b9' })).toMatchObject({
      kind: 'hot-folder-run-ended', title: 'Hot folder done — inbox', body: '12 photos processed, 1 failed · 12 credits', batchId: 'b9', needsAction: true,
    });
    expect(hotFolderRunAttention({ path: 'C:\\in', processed: 1, failed: 0, creditsSpent: 1, lastBatchId: null })?.title).toBe('Hot folder done — in');
    expect(hotFolderRunAttention({ path: '/in', processed: 0, failed: 0, creditsSpent: 0, lastBatchId: null })).toBeNull();
  });
});

describe('shouldRingBell', () => {
  it('rings only at a terminal, without --quiet or --json, with the setting on', () => {
    const base = { isTTY: true, quiet: false, json: false, enabled: true };
    expect(shouldRingBell(base)).toBe(true);
    expect(shouldRingBell({ ...base, isTTY: false })).toBe(false);
    expect(shouldRingBell({ ...base, isTTY: undefined })).toBe(false);
    expect(shouldRingBell({ ...base, quiet: true })).toBe(false);
    expect(shouldRingBell({ ...base, json: true })).toBe(false);
    expect(shouldRingBell({ ...base, enabled: false })).toBe(false);
  });
});
