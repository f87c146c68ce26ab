import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startAttention } from '../../../main/core/app/attention';
import { createCore } from '../../../main/core/app/create-core';
import { createEventBus } from '../../../main/core/app/event-bus';
import type { HostCapabilities } from '../../../main/core/app/types';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { startEmbeddedSandbox } from '../../../main/sandbox/embedded';
import { ITEM_STATES, PAUSED_BY_USER, type BatchSummary, type ItemState } from '../../../shared/engine/model';
import type { HotFolderState } from '../../../shared/hotfolders/model';
import { writePhotos } from '../engine/helpers';
import { openSettingsStore } from '../../../main/core/settings';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import type { Attention } from '../../../shared/notify/attention';
import { useCoreTestBed } from './core-test-bed';

function batch(extra: Omit<Partial<BatchSummary>, 'counts'> & { counts?: Partial<Record<ItemState, number>> }): BatchSummary {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, extra.counts?.[s] ?? 0])) as BatchSummary['counts'];
  return {
    id: 'b1', workflowId: 'wf', workflowName: 'Relight', state: 'running', pausedReason: null, pauseCode: null, createdAt: '2026-11-27T10:00:00Z',
    total: 4, progress: 0, etaMs: null, creditCost: 4, unitCost: 1, trialRest: null, creditsSpent: 0, budget: null, outputFolder: '/out', ...extra, counts,
  };
}

function folder(status: Partial<HotFolderState['status']>): HotFolderState {
  return {
    config: { id: 'f1', path: '/shoots/inbox', workflowId: 'wf' },
    status: { id: 'f1', state: 'armed', reason: null, processed: 0, queued: 0, failed: 0, lastActivityAt: null, awaitingReview: 0, creditsSpent: 0, studio: 'off', ...status },
  } as HotFolderState;
}

/** The core's attention on a bus of its own: events in, `app:attention` out. */
function watch(options: { enabled?: () => boolean; hotFolders?: Record<string, string> } = {}) {
  const bus = createEventBus();
  const said: Attention[] = [];
  bus.onEvent((channel, payload) => { if (channel === 'app:attention') said.push(payload as Attention); });
  startAttention({ bus, enabled: options.enabled ?? (() => true), hotFolderOf: async (id) => options.hotFolders?.[id] ?? null });
  const progress = (...batches: BatchSummary[]) => bus.emit('batches:progress', { batches, items: [] });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { bus, said, progress, settle };
}

describe('attention (the core watching its own events)', () => {
  it('says an ending once however many progress events repeat it, and a user pause never', async () => {
    const { said, progress, settle } = watch();
    progress(batch({}));
    progress(batch({ state: 'paused', pauseCode: 'user', pausedReason: PAUSED_BY_USER }));
    progress(batch({}));
    progress(batch({ state: 'completed', counts: { saved: 4 }, creditsSpent: 4 }));
    progress(batch({ state: 'completed', counts: { saved: 4 }, creditsSpent: 4 }));
    await settle();
    expect(said).toMatchObject([{ kind: 'batch-ended', title: 'Batch done — Relight', body: '4 saved · 4 credits', batchId: 'b1', needsAction: false }]);
  });

  it('says a pause for money once per pause, and an outage once for every batch it paused', async () => {
    const { said, progress } = watch();
    progress(batch({ id: 'a' }), batch({ id: 'b' }), batch({ id: 'c' }));
    progress(batch({ id: 'a', state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'offline' }));
    progress(batch({ id: 'b', state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'offline' }));
    progress(batch({ id: 'c', state: 'paused', pauseCode: 'insufficient-credits', pausedReason: 'no credits' }));
    progress(batch({ id: 'c', state: 'paused', pauseCode: 'insufficient-credits', pausedReason: 'no credits' }));
    expect(said.map((a) => [a.title, a.batchId])).toEqual([['Batch paused: the service is not answering', 'a'], ['Batch paused: out of credits', 'c']]);
    // The outage ended (both running again); the next one is said again.
    progress(batch({ id: 'a' }), batch({ id: 'b' }));
    progress(batch({ id: 'b', state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'offline' }));
    expect(said).toHaveLength(3);
  });

  it("says a hot folder's run when its queue drains (opening its last batch), not each of its batches", async () => {
    const { bus, said, progress, settle } = watch({ hotFolders: { h1: 'f1' } });
    bus.emit('hotFolders:changed', [folder({})]);
    bus.emit('hotFolders:changed', [folder({ queued: 3 })]);
    progress(batch({ id: 'h1' }));
    await settle();
    progress(batch({ id: 'h1', state: 'completed', counts: { saved: 3 }, creditsSpent: 3 }));
    bus.emit('hotFolders:changed', [folder({ queued: 1, processed: 2 })]);
    await settle();
    expect(said).toEqual([]);
    bus.emit('hotFolders:changed', [folder({ queued: 0, processed: 3, creditsSpent: 3 })]);
    bus.emit('hotFolders:changed', [folder({ queued: 0, processed: 3, creditsSpent: 3 })]);
    expect(said).toMatchObject([{ kind: 'hot-folder-run-ended', title: 'Hot folder done — inbox', body: '3 photos processed · 3 credits', batchId: 'h1', needsAction: false }]);
  });

  it('says nothing while notifyWhenDone is off', async () => {
    let on = false;
    const { said, progress, settle } = watch({ enabled: () => on });
    progress(batch({}));
    progress(batch({ state: 'cancelled' }));
    await settle();
    expect(said).toEqual([]);
    on = true;
    progress(batch({ id: 'b2' }));
    progress(batch({ id: 'b2', state: 'paused', pauseCode: 'budget', pausedReason: 'budget reached' }));
    expect(said.map((a) => a.kind)).toEqual(['batch-paused']);
  });
});

const host: HostCapabilities = { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` };
const bed = useCoreTestBed('attention');

describe('attention in the core with the sandbox', () => {
  it('emits app:attention exactly once when a real batch completes', async () => {
    const photos = join(bed.dir, 'photos');
    await mkdir(photos, { recursive: true });
    for (const [name, background] of [['one', '#336699'], ['two', '#996633']] as const) {
      await sharp({ create: { width: 64, height: 48, channels: 3, background } }).jpeg().toFile(join(photos, `${name}.jpg`));
    }
    const core = await createCore({
      host, stateDir: join(bed.dir, 'state'), env: {}, secretStore: createInMemorySecretStore(), startEmbeddedService: startEmbeddedSandbox,
      apiKey: bed.sandbox.apiKey, serviceUrl: bed.sandbox.url, confirmOriginChange: { via: 'dialog', confirm: async () => true },
    });
    const said: Attention[] = [];
    let progressEvents = 0;
    core.onEvent((channel, payload) => {
      if (channel === 'app:attention') said.push(payload as Attention);
      if (channel === 'batches:progress') progressEvents += 1;
    });
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers);
      const created = await dispatch('batches:create', { workflowId: 'auto-enhance', inputs: { paths: [photos] }, output: { outputFolder: join(bed.dir, 'out') } });
      expect(created).toMatchObject({ ok: true, data: { total: 2 } });
      const batchId = (created as { data: { id: string } }).data.id;
      await expect.poll(() => said.length, { timeout: 15_000, interval: 50 }).toBe(1);
      expect(said[0]).toMatchObject({ kind: 'batch-ended', title: 'Batch done — Auto Enhance', body: '2 saved · 2 free test credits', batchId, needsAction: false });
      // Later events (the balance, the outbox's last progress) do not say it again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(progressEvents).toBeGreaterThan(1);
      expect(said).toHaveLength(1);
    } finally {
      await core.shutdown();
    }
  });

  it("emits one app:attention for a hot folder's run, not one per batch it made", async () => {
    const hot = join(bed.dir, 'hot');
    const stateDir = join(bed.dir, 'state-hot');
    await mkdir(hot, { recursive: true });
    await writePhotos(hot, 3);
    openSettingsStore({ stateDir }).update({
      hotFolders: [HotFolderConfigSchema.parse({
        id: 'hf', path: hot, workflowId: 'auto-enhance', outputFolder: join(bed.dir, 'hot-out'), enabled: true, existingFiles: 'process',
      })],
    });
    const core = await createCore({
      host, stateDir, env: {}, secretStore: createInMemorySecretStore(), serviceUrl: bed.sandbox.url, apiKey: bed.sandbox.apiKey, startHotFolders: true,
    });
    const said: Attention[] = [];
    core.onEvent((channel, payload) => { if (channel === 'app:attention') said.push(payload as Attention); });
    try {
      await expect.poll(() => said.length, { timeout: 30_000, interval: 100 }).toBe(1);
      expect(said[0]).toMatchObject({ kind: 'hot-folder-run-ended', title: 'Hot folder done — hot', body: '3 photos processed · 3 free test credits', needsAction: false });
      // Its click opens Review on the folder's (last) batch: one the journal knows.
      const batches = await createInvokeDispatcher(contract, core.handlers)('batches:list', {});
      expect(batches.ok && (batches.data as Array<{ id: string }>).map((b) => b.id)).toContain(said[0]!.batchId);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(said).toHaveLength(1);
    } finally {
      await core.shutdown();
    }
  });
});
