import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BatchProgressEvent } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import { createBatchHandlers, createEngine } from '../../../main/core/engine';
import { tempPathFor } from '../../../main/core/images/save';
import { until } from '../../helpers/until';
import { createFakeClient } from './fake-client';
import { forceState, useEngineTestBed, waitForBatch, writePhotos } from './helpers';

describe('engine controls', () => {
  const bed = useEngineTestBed();

  const spec = (extra: Record<string, unknown> = {}) => ({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') }, ...extra });

  it('marks a lost submission unknown and, without balance evidence (studio mode), never resubmits it by itself; resubmits on request', async () => {
    await writePhotos(bed.input, 3);
    const client = createFakeClient({ onExecute: (n) => (n === 1 ? { kind: 'unknown', reason: 'connection reset after sending' } : null) });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts).toMatchObject({ saved: 2, unknown: 1 });
    expect(client.executeCalls()).toBe(3);
    const unknown = engine.listItems({ batchId: batch.id, states: ['unknown'] }).items[0]!;
    expect(unknown.reason).toMatch(/may have been charged/);
    const resubmitted = engine.resubmitItem(unknown.id);
    expect(resubmitted.state).toBe('pending');
    const again = await waitForBatch(engine, batch.id);
    expect(again.counts).toMatchObject({ saved: 3, unknown: 0 });
    expect(client.executeCalls()).toBe(4);
  });

  it('does not resend an item the service answered with a server error; "Retry failed" sends it again', async () => {
    await writePhotos(bed.input, 3);
    const client = createFakeClient({ onExecute: (n) => (n === 0 ? new AppError('server', 'HTTP 500: internal error') : null) });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts).toMatchObject({ saved: 2, failed: 1 });
    expect(client.executeCalls()).toBe(3);
    const failed = engine.listItems({ batchId: batch.id, states: ['failed'] }).items[0]!;
    expect(failed.reason).toMatch(/not sent again automatically/);
    engine.retryFailed(batch.id);
    const again = await waitForBatch(engine, batch.id);
    expect(again.counts).toMatchObject({ saved: 3, failed: 0 });
    expect(client.executeCalls()).toBe(4);
  });

  it('applies a new concurrency to the running engine: more executions in flight at once, no restart', async () => {
    await writePhotos(bed.input, 6);
    const hold = { held: true };
    const client = createFakeClient({ hold });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    await until(() => client.executeCalls() >= 1, 'the first execution', { intervalMs: 10 });
    // One slot, and its execution is held running: nothing else may be submitted.
    await new Promise((r) => setTimeout(r, 300));
    expect(client.executeCalls()).toBe(1);
    engine.setConcurrency(3);
    // Two more go out while the first is still running: the new slots are used at once.
    await until(() => client.executeCalls() >= 3, 'two more executions in the new slots', { intervalMs: 10 });
    await new Promise((r) => setTimeout(r, 300));
    expect(client.executeCalls()).toBe(3);
    hold.held = false;
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts).toMatchObject({ saved: 6 });
    expect(client.executeCalls()).toBe(6);
  });

  it('pauses the batch with a reason when the service says credits ran out, and resumes after a top-up', async () => {
    await writePhotos(bed.input, 4);
    const client = createFakeClient({ balance: 4 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    client.setBalance(2); // someone else spent credits meanwhile
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 5000 });
    expect(paused.pausedReason).toMatch(/insufficient credits/);
    expect(paused.pauseCode).toBe('insufficient-credits');
    expect(paused.counts.saved).toBe(2);
    expect(paused.counts.failed).toBe(0);
    client.setBalance(10);
    engine.resume(batch.id);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(4);
  });

  it('pauses with code unauthorized (not a money code) when the key is rejected mid-run, even if its words say credits', async () => {
    await writePhotos(bed.input, 3);
    const client = createFakeClient({ onExecute: (n) => (n === 1 ? new AppError('unauthorized', 'key revoked: no credits for this key') : null) });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 5000 });
    expect(paused.pauseCode).toBe('unauthorized');
    expect(paused.pausedReason).toMatch(/rejected the API key/);
    expect(paused.counts.failed ?? 0).toBe(0);
  });

  it('stops at the budget instead of spending past it', async () => {
    await writePhotos(bed.input, 3);
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    const batch = await engine.createBatch(spec({ budget: 3 }));
    // Something already spent 2 of the 3 credits (e.g. an earlier retry): one more item fits, the last does not.
    const first = engine.listItems({ batchId: batch.id }).items[0]!;
    for (const event of ['encode', 'submit'] as const) bed.journal.updateItem(first.id, { event });
    bed.journal.recordAccepted(first.id, 'exe_earlier', 2, new Date().toISOString());
    for (const event of ['complete', 'save'] as const) bed.journal.updateItem(first.id, { event });
    await engine.start();
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 10_000 });
    expect(paused.pausedReason).toMatch(/budget reached: 3 of 3 credits spent/);
    expect(paused.pauseCode).toBe('budget');
    expect(paused.creditsSpent).toBe(3);
    expect(paused.counts.saved).toBe(2);
    expect(client.executeCalls()).toBe(1);
  });

  it('pause finishes what is in flight and starts nothing new; cancel stops pending items', async () => {
    await writePhotos(bed.input, 6);
    const client = createFakeClient({ durationMs: 150 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    await new Promise((r) => setTimeout(r, 60));
    engine.pause(batch.id);
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'] });
    const callsAtPause = client.executeCalls();
    await new Promise((r) => setTimeout(r, 300));
    expect(client.executeCalls()).toBe(callsAtPause);
    expect(paused.pausedReason).toMatch(/paused by you/);
    expect(paused.pauseCode).toBe('user');
    const cancelled = engine.cancel(batch.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.counts.pending + cancelled.counts.encoding).toBe(0);
    expect(cancelled.counts.cancelled).toBeGreaterThan(0);
  });

  it('resumes a cancelled batch: what it never sent runs after all, nothing is sent twice', async () => {
    await writePhotos(bed.input, 5);
    const client = createFakeClient({ durationMs: 100 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    await until(() => client.executeCalls() >= 1, 'the first execution', { intervalMs: 10 });
    const cancelled = engine.cancel(batch.id);
    expect(cancelled.counts.cancelled).toBeGreaterThan(0);
    await waitForBatch(engine, batch.id, { states: ['cancelled'] });
    const sentBefore = client.executeCalls();
    const resumed = engine.resume(batch.id);
    expect(resumed.state).toBe('running');
    expect(resumed.counts.cancelled).toBe(0);
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(5);
    expect(client.executeCalls()).toBe(5);
    expect(sentBefore).toBeLessThan(5);
  });

  it('cancels single pending items, refuses to cancel paid ones, reorders and records verdicts', async () => {
    await writePhotos(bed.input, 4);
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    // Not started: everything stays pending, so the queue can be edited deterministically.
    const batch = await engine.createBatch(spec());
    const ids = engine.listItems({ batchId: batch.id }).items.map((i) => i.id);
    expect(engine.reorder(batch.id, [ids[3]!, ids[2]!])).toEqual({ moved: 2 });
    expect(engine.listItems({ batchId: batch.id }).items.map((i) => i.id)).toEqual([ids[3], ids[2], ids[0], ids[1]]);
    engine.reorder(batch.id, [ids[3]!], ids[1]!);
    expect(engine.listItems({ batchId: batch.id }).items.map((i) => i.id)).toEqual([ids[2], ids[0], ids[3], ids[1]]);
    expect(engine.cancelItem(ids[0]!).state).toBe('cancelled');
    await engine.start();
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts).toMatchObject({ saved: 3, cancelled: 1 });
    const saved = engine.listItems({ batchId: batch.id, states: ['saved'] }).items[0]!;
    expect(() => engine.cancelItem(saved.id)).not.toThrow();
    expect(engine.setVerdict(saved.id, 'rejected').verdict).toBe('rejected');
    const rerun = await engine.rerun([saved.id], { texts: {} });
    expect(rerun.total).toBe(1);
    expect((await waitForBatch(engine, rerun.id)).counts.saved).toBe(1);
  });

  it('resuming a cancelled batch with nothing unsent left changes nothing: its paid result downloads anyway', async () => {
    await writePhotos(bed.input, 1);
    const client = createFakeClient({ durationMs: 0 });
    const download = client.downloadResult.bind(client);
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    let downloads = 0;
    client.downloadResult = async (url, opts) => { downloads++; await held; return download(url, opts); };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    await until(() => downloads === 1, 'the result downloading');
    expect(engine.cancel(batch.id).state).toBe('cancelled');
    // A cancel never cuts or holds a paid download, so there is nothing for a resume to bring back.
    expect(engine.resume(batch.id).state).toBe('cancelled');
    release();
    const done = await waitForBatch(engine, batch.id, { states: ['cancelled'] });
    expect(done.counts.saved).toBe(1);
    expect(engine.getBatch(batch.id).state).toBe('cancelled');
    expect(client.executeCalls()).toBe(1);
    expect(downloads).toBe(1);
  });

  it('refuses an action in the wrong state and changes nothing', async () => {
    await writePhotos(bed.input, 2);
    const client = createFakeClient({ durationMs: 400 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    const batch = await engine.createBatch(spec());
    const [first, second] = engine.listItems({ batchId: batch.id }).items;
    // Pending: nothing to resubmit; a running batch cannot be resumed, a paused one cannot be paused again.
    expect(() => engine.resubmitItem(first!.id)).toThrow(/only unknown or failed items can be resubmitted \(this one is pending\)/);
    expect(engine.resume(batch.id).state).toBe('running');
    expect(engine.pause(batch.id).pausedReason).toMatch(/paused by you/);
    expect(engine.pause(batch.id).state).toBe('paused');
    engine.resume(batch.id);
    await engine.start();
    await vi.waitFor(() => expect(['submitted', 'running']).toContain(engine.getItem(first!.id).state), { timeout: 20_000, interval: 20 });
    // Sent and paid for: it can be neither cancelled nor resubmitted.
    const conflict = (() => { try { engine.cancelItem(first!.id); } catch (error) { return error; } return null; })();
    expect(conflict).toBeInstanceOf(AppError);
    expect((conflict as AppError).code).toBe('conflict');
    expect(() => engine.resubmitItem(first!.id)).toThrow(/only unknown or failed/);
    expect(['submitted', 'running', 'downloading', 'saved']).toContain(engine.getItem(first!.id).state);
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(2);
    // Finished: cancelling, resuming, retrying or cancelling an item changes nothing and sends nothing.
    expect(engine.cancel(batch.id).state).toBe('completed');
    expect(engine.resume(batch.id).state).toBe('completed');
    expect(engine.retryFailed(batch.id).state).toBe('completed');
    expect(engine.cancelItem(second!.id).state).toBe('saved');
    expect(() => engine.resubmitItem(second!.id)).toThrow(/this one is saved/);
    expect(engine.getBatch(batch.id).counts).toMatchObject({ saved: 2, cancelled: 0, pending: 0 });
    expect(client.executeCalls()).toBe(2);
  });

  it('retries failed items: a result that was paid for is downloaded again, not re-executed', async () => {
    await writePhotos(bed.input, 2);
    const client = createFakeClient({ onExecute: (n) => (n === 0 ? new AppError('validation', 'the service rejected the image') : null) });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    const first = await waitForBatch(engine, batch.id);
    expect(first.counts).toMatchObject({ saved: 1, failed: 1 });
    expect(engine.listItems({ batchId: batch.id, states: ['failed'] }).items[0]!.reason).toBe('the service rejected the image');
    // Simulate a saved-result loss: mark the saved item failed as if its save had failed.
    const saved = engine.listItems({ batchId: batch.id, states: ['saved'] }).items[0]!;
    forceState(bed.journal, saved.id, 'failed');
    bed.journal.updateItem(saved.id, { outputs: [], reason: 'cannot write' });
    engine.retryFailed(batch.id);
    const second = await waitForBatch(engine, batch.id);
    expect(second.counts.saved).toBe(2);
    expect(client.executeCalls()).toBe(3); // 2 first time + 1 re-execution of the rejected item, none for the paid one
  });

  it('recovers after a crash: submitting → unknown, half-placed results finished, temp files removed', async () => {
    await writePhotos(bed.input, 3);
    const client = createFakeClient();
    // Balance evidence (which would judge item 0) has its own tests: balance-evidence.test.ts.
    const first = createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false });
    const batch = await first.createBatch(spec());
    const out = join(bed.dir.path, 'out');
    await mkdir(out, { recursive: true });
    const items = first.listItems({ batchId: batch.id }).items;
    // Item 0 was being POSTed when the process died.
    for (const event of ['encode', 'submit'] as const) bed.journal.updateItem(items[0]!.id, { event });
    // Item 1's result was verified and its final name chosen; the rename never happened.
    const temp = tempPathFor(out, items[1]!.id);
    await writeFile(temp, Buffer.from(await (await client.downloadResult('x')).arrayBuffer()));
    for (const event of ['encode', 'submit'] as const) bed.journal.updateItem(items[1]!.id, { event });
    bed.journal.recordAccepted(items[1]!.id, 'exe_recovered', 1, new Date().toISOString());
    bed.journal.updateItem(items[1]!.id, { event: 'complete', resultUrls: ['http://fake.test/r.jpg'], pendingTemp: temp, pendingFinal: join(out, 'final.jpg') });
    // A stray temp from a download that never finished.
    const stray = tempPathFor(out, items[2]!.id);
    await writeFile(stray, 'partial');
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    const events: BatchProgressEvent[] = [];
    engine.onProgress((e) => events.push(e));
    await engine.start();
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts).toMatchObject({ unknown: 1, saved: 2 });
    expect(engine.getItem(items[0]!.id).reason).toMatch(/may have .*charged/);
    expect(engine.getItem(items[1]!.id).outputs).toEqual([join(out, 'final.jpg')]);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(client.executeCalls()).toBe(1); // only item 2 was submitted
  });

  it('coalesces events to at most ~10 a second and serves the IPC handlers', async () => {
    await writePhotos(bed.input, 12);
    const client = createFakeClient({ durationMs: 5 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 4 }));
    const events: { at: number; e: BatchProgressEvent }[] = [];
    engine.onProgress((e) => events.push({ at: Date.now(), e }));
    await engine.start();
    const handlers = createBatchHandlers(engine);
    const summary = await handlers['batches:create'](
      { ...spec(), parameters: {}, encode: { uploadSizePolicy: 'fit', stripMetadata: true }, budget: null, rerun: false, tryFirst: null, trialRest: null, source: { kind: 'manual' }, deliverables: [], priority: 0, inputs: { paths: [bed.input], recursive: false, mappings: [] }, output: { outputFolder: join(bed.dir.path, 'out'), namingTemplate: '{name}{ext}', collisionPolicy: 'suffix', sidecars: false, sidecar: 'none', metadata: 'keep', format: 'source', quality: 92, colour: 'srgb', folder: '', size: { fit: 'original' } } },
    );
    await waitForBatch(engine, summary.id);
    await new Promise((r) => setTimeout(r, 250));
    for (let i = 1; i < events.length; i++) expect(events[i]!.at - events[i - 1]!.at).toBeGreaterThanOrEqual(80);
    const lastBatch = events.flatMap((x) => x.e.batches).at(-1)!;
    expect(lastBatch.counts.saved).toBe(12);
    expect(lastBatch.etaMs).toBe(0);
    expect((await handlers['batches:list']({})).map((b) => b.id)).toContain(summary.id);
    expect((await handlers['batches:items']({ batchId: summary.id, offset: 0, limit: 5 })).items).toHaveLength(5);
  });
});
