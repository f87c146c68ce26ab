import { existsSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import type { Core, CoreOptions, HostCapabilities } from '../../../main/core/app/types';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { contract, type EventChannelName } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { ItemOutcomeEventSchema, type ItemView } from '../../../shared/engine/model';
import { useCoreTestBed } from './core-test-bed';
import { startEmbeddedSandbox } from '../../../main/sandbox/embedded';

const host: HostCapabilities = { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` };

const bed = useCoreTestBed('core');
let counter = 0;

function options(extra: Partial<CoreOptions> = {}): CoreOptions {
  counter += 1;
  // The user at the machine confirms every change of origin here (the refusals: origin-consent.test.ts).
  const confirmOriginChange = { via: 'dialog' as const, confirm: async () => true };
  return { host, stateDir: join(bed.dir, `state-${counter}`), env: {}, secretStore: createInMemorySecretStore(), startEmbeddedService: startEmbeddedSandbox, confirmOriginChange, ...extra };
}

function item(extra: Partial<ItemView>): ItemView {
  return {
    id: 'i1', batchId: 'b1', position: 0, displayName: 'a.jpg', sources: {}, state: 'saved', progress: 100, reason: null,
    executionId: null, outputs: [], creditsCharged: 0, verdict: null, updatedAt: new Date().toISOString(), ...extra,
  };
}

function recorder(core: Core) {
  const seen: Array<{ channel: EventChannelName; payload: unknown }> = [];
  core.onEvent((channel, payload) => seen.push({ channel, payload }));
  return seen;
}


describe('createCore', () => {
  it('runs against the embedded sandbox without a key, says so, and stops it on shutdown', async () => {
    const core = await createCore(options({ withEngine: false }));
    const dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
    const status = await dispatch('service:status', {});
    expect(status).toMatchObject({ ok: true, data: { mode: 'sandbox', keySource: 'sandbox' } });
    const url = (status as { data: { serviceUrl: string } }).data.serviceUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const list = await dispatch('workflows:list', {});
    expect(list.ok && (list.data as { workflows: unknown[] }).workflows.length).toBeGreaterThan(5);
    expect(core.secrets()[0]).toMatch(/^sk_test_/);
    expect(JSON.stringify(status)).not.toContain(core.secrets()[0]);
    expect(await dispatch('batches:list', {})).toMatchObject({ ok: false, code: 'unavailable' });
    await core.shutdown();
    await expect(fetch(`${url}/workflows`)).rejects.toThrow();
  });

  it('hands the host its service channels once the connection is open, before the journal and engine start', async () => {
    const stateDir = join(bed.dir, 'state-service-first');
    const order: string[] = [];
    let catalog: Promise<unknown> | undefined;
    const core = await createCore(options({
      stateDir,
      onServiceReady: (service) => {
        order.push(`service (journal ${existsSync(join(stateDir, 'journal.db')) ? 'open' : 'not yet open'})`);
        catalog = Promise.resolve(service.handlers['workflows:list']({})).then((list) => order.push(`catalog of ${list.workflows.length}`));
      },
    }));
    order.push('core');
    try {
      await catalog;
      expect(order[0]).toBe('service (journal not yet open)');
      expect(order).toContain('core');
      expect(order.find((step) => step.startsWith('catalog'))).toMatch(/^catalog of \d+$/);
      // The very handlers the finished core has: one service, one set of answers.
      const dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'sandbox' } });
      expect(existsSync(join(stateDir, 'journal.db'))).toBe(true);
    } finally {
      await core.shutdown();
    }
  });

  it('loads the journal and engine only once runtimeAfter settles (the host lets its first catalog go first)', async () => {
    const stateDir = join(bed.dir, 'state-runtime-after');
    let go!: () => void;
    const runtimeAfter = new Promise<void>((resolve) => (go = resolve));
    let serviceUp = false;
    const starting = createCore(options({ stateDir, runtimeAfter, onServiceReady: () => (serviceUp = true) }));
    await expect.poll(() => serviceUp).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(join(stateDir, 'journal.db'))).toBe(false);
    go();
    const core = await starting;
    try {
      expect(existsSync(join(stateDir, 'journal.db'))).toBe(true);
    } finally {
      await core.shutdown();
    }
  });

  it('a runtimeAfter that rejects (the host stopped first) leaves the journal unopened and keeps its reason over a failed close', async () => {
    const stateDir = join(bed.dir, 'state-runtime-abort');
    const stopped = new Error('stopped before the core was up');
    let closed = false;
    const startEmbeddedService = async () => {
      const embedded = await startEmbeddedSandbox();
      return {
        url: embedded.url,
        apiKey: embedded.apiKey,
        close: async () => {
          await embedded.close();
          closed = true;
          throw new Error('close failed');
        },
      };
    };
    const runtimeAfter = Promise.reject(stopped);
    runtimeAfter.catch(() => undefined); // awaited by createCore only once the sandbox is up
    await expect(createCore(options({ stateDir, startEmbeddedService, runtimeAfter }))).rejects.toBe(stopped);
    expect(closed).toBe(true);
    expect(existsSync(join(stateDir, 'journal.db'))).toBe(false);
  });

  it('answers app and files channels from the host capabilities, previews only existing pictures', async () => {
    const core = await createCore(options({ withEngine: false, apiKey: bed.sandbox.apiKey, serviceUrl: bed.sandbox.url }));
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers);
      const photo = join(bed.dir, 'a.jpg');
      await writeFile(photo, await sharp({ create: { width: 8, height: 6, channels: 3, background: '#39c' } }).jpeg().toBuffer());
      // A file named as a photo that is none: refused in words that fit it (it is no RAW without a preview).
      const fake = join(bed.dir, 'b.jpg');
      await writeFile(fake, 'x');
      expect(await dispatch('app:info', {})).toMatchObject({ ok: true, data: { host: 'browser', platform: 'linux' } });
      expect(await dispatch('files:pickFiles', {})).toMatchObject({ ok: false, code: 'unsupported' });
      // Only what the core handed out may be previewed: before the renderer was shown the photo, it is refused.
      expect(await dispatch('files:previewUrl', { path: photo })).toMatchObject({ ok: false, code: 'forbidden_path' });
      core.emit('batches:progress', { batches: [], items: [item({ sources: { image: photo }, outputs: [join(bed.dir, 'missing.jpg')] }), item({ sources: { image: fake } })] });
      expect(await dispatch('files:previewUrl', { path: photo })).toEqual({ ok: true, data: { url: host.previewUrlFor(realpathSync(photo)) } });
      expect(await dispatch('files:previewUrl', { path: fake })).toMatchObject({ ok: false, code: 'unsupported_media', message: expect.stringMatching(/^b\.jpg cannot be shown: it is not a picture/) });
      expect(await dispatch('files:previewUrl', { path: join(bed.dir, 'missing.jpg') })).toMatchObject({ ok: false, code: 'not_found' });
      expect(await dispatch('files:previewUrl', { path: '/etc/passwd' })).toMatchObject({ ok: false, code: 'forbidden_path' });
    } finally {
      await core.shutdown();
    }
  });

  it('stores a validated key, switches to the live service, and falls back to the sandbox when it is deleted', async () => {
    const core = await createCore(options({ withEngine: false }));
    const seen = recorder(core);
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
      const embedded = await dispatch('service:status', {});
      expect(await dispatch('settings:update', { patch: { serviceUrl: bed.sandbox.url } })).toMatchObject({ ok: true });
      // Still no key for that URL: the same embedded sandbox keeps running (no second one is started).
      const after = await dispatch('service:status', {});
      expect(after.ok && embedded.ok && (after.data as { serviceUrl: string }).serviceUrl).toBe(embedded.ok && (embedded.data as { serviceUrl: string }).serviceUrl);
      expect(seen.some((e) => e.channel === 'settings:changed')).toBe(true);
      const rejected = await dispatch('key:set', { apiKey: 'sk_live_notAcceptedHere1' });
      expect(rejected).toMatchObject({ ok: false, code: 'unauthorized' });
      expect(JSON.stringify(rejected)).not.toContain('notAcceptedHere1');

      const stored = await dispatch('key:set', { apiKey: bed.sandbox.apiKey });
      expect(stored).toMatchObject({ ok: true, data: { mode: 'live', source: 'keychain' } });
      expect(JSON.stringify(stored)).not.toContain(bed.sandbox.apiKey);
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'live', serviceUrl: bed.sandbox.url, keySource: 'keychain' } });
      expect(seen.filter((e) => e.channel === 'service:changed')).toHaveLength(2); // the URL change, then the key
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: true });
      expect(seen.some((e) => e.channel === 'balance:changed')).toBe(true);

      expect(await dispatch('key:delete', {})).toMatchObject({ ok: true, data: { mode: 'sandbox' } });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'sandbox' } });
    } finally {
      await core.shutdown();
    }
  });

  it('uses a key with another service only once the user confirms it', async () => {
    const here = bed.sandbox.url;
    const sameHostOtherName = bed.sandbox.url.replace('127.0.0.1', 'localhost');
    // A key saved in the keychain for one URL is offered (masked) for another, and moves only on key:reuse.
    const core = await createCore(options({ withEngine: false }));
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
      await dispatch('settings:update', { patch: { serviceUrl: here } });
      expect(await dispatch('key:set', { apiKey: bed.sandbox.apiKey })).toMatchObject({ ok: true, data: { mode: 'live' } });
      await dispatch('settings:update', { patch: { serviceUrl: sameHostOtherName } });
      const offered = await dispatch('key:status', {});
      expect(offered).toMatchObject({ ok: true, data: { hasKey: false, otherServiceKeys: [{ serviceUrl: here }] } });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'sandbox' } });
      expect(await dispatch('key:reuse', { fromServiceUrl: here })).toMatchObject({ ok: true, data: { mode: 'live', hasKey: true, serviceUrl: sameHostOtherName } });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'live', serviceUrl: sameHostOtherName, keySource: 'keychain' } });
    } finally {
      await core.shutdown();
    }

    // A key from the environment is bound to the first origin it went to; another one waits for key:allowOrigin.
    const stateDir = join(bed.dir, 'state-origin');
    const envCore = await createCore(options({ stateDir, withEngine: false, env: { BATCHROOM_API_KEY: bed.sandbox.apiKey } }));
    try {
      const dispatch = createInvokeDispatcher(contract, envCore.handlers, { secrets: envCore.secrets });
      await dispatch('settings:update', { patch: { serviceUrl: here } });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'live', keySource: 'env' } });
      await dispatch('settings:update', { patch: { serviceUrl: sameHostOtherName } });
      expect(await dispatch('key:status', {})).toMatchObject({ ok: true, data: { hasKey: false, awaitingOriginConfirmation: true } });
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: false });
      expect(await dispatch('key:allowOrigin', {})).toMatchObject({ ok: true, data: { mode: 'live', source: 'env', awaitingOriginConfirmation: false } });
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: true });
    } finally {
      await envCore.shutdown();
    }
  });

  it('explains a missing key when a service URL is given explicitly', async () => {
    const core = await createCore(options({ withEngine: false, serviceUrl: bed.sandbox.url }));
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers);
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'live', keySource: 'none' } });
      const list = await dispatch('workflows:list', {});
      // Its own code (not "unauthorized": no key was refused, there is none), with the way out as the hint.
      expect(list).toMatchObject({ ok: false, code: 'missing_key', message: expect.stringMatching(/No API key/), hint: expect.stringMatching(/batchroom key set/) });
    } finally {
      await core.shutdown();
    }
  });

  it('runs a batch through the engine with progress events, and holds the state dir for one engine only', async () => {
    const stateDir = join(bed.dir, 'state-engine');
    const photos = join(bed.dir, 'engine-photos');
    await mkdir(photos, { recursive: true });
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).jpeg().toFile(join(photos, 'one.jpg'));
    const core = await createCore(options({ stateDir, apiKey: bed.sandbox.apiKey, serviceUrl: bed.sandbox.url }));
    const seen = recorder(core);
    try {
      await expect(createCore(options({ stateDir, apiKey: bed.sandbox.apiKey, serviceUrl: bed.sandbox.url }))).rejects.toMatchObject({ code: 'conflict' });
      const dispatch = createInvokeDispatcher(contract, core.handlers);
      const created = await dispatch('batches:create', {
        workflowId: 'auto-enhance', inputs: { paths: [photos] }, output: { outputFolder: join(bed.dir, 'engine-out') },
      });
      expect(created).toMatchObject({ ok: true, data: { total: 1 } });
      const batchId = (created as { data: { id: string } }).data.id;
      await expect.poll(async () => {
        const list = await dispatch('batches:list', {});
        return list.ok ? (list.data as Array<{ id: string; state: string }>).find((b) => b.id === batchId)?.state : null;
      }, { timeout: 15_000, interval: 100 }).toBe('completed');
      expect(seen.some((e) => e.channel === 'batches:progress')).toBe(true);
      // The item's outcome is relayed from the outbox once, whole, and valid against the contract.
      await expect.poll(() => seen.filter((e) => e.channel === 'batches:outcome').length, { timeout: 5_000, interval: 50 }).toBe(1);
      const outcome = seen.find((e) => e.channel === 'batches:outcome')!.payload;
      expect(ItemOutcomeEventSchema.parse(outcome)).toMatchObject({ batchId, displayName: 'one.jpg', attempt: 1, state: 'saved', creditsCharged: 1 });
      // Credits were spent: every window learns the new balance without asking.
      await expect.poll(() => seen.some((e) => e.channel === 'balance:changed'), { timeout: 10_000, interval: 100 }).toBe(true);
      expect(await dispatch('hotFolders:list', {})).toEqual({ ok: true, data: [] });
      expect(core.hotFolders).toBeDefined();
    } finally {
      await core.shutdown();
    }
    // Released on shutdown: the next core takes the state dir.
    const next = await createCore(options({ stateDir, apiKey: bed.sandbox.apiKey, serviceUrl: bed.sandbox.url }));
    await next.shutdown();
  });
});
