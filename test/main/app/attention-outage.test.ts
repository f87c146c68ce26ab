import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import type { Attention } from '../../../shared/notify/attention';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';

// A real outage pauses the batch (pauseCode service-unreachable) and resumes it by itself: the user hears of the
// pause once and of the end once — not of the resume, nor again at each progress event in between.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-attention-outage-'));
  sandbox = await startTestSandbox({ executionDurationMs: 400 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('attention through a service outage', { timeout: 90_000 }, () => {
  it('says the outage pause once, then the batch done once', async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos);
    await writePhotos(photos, 12);
    const core = await createCore({
      host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` },
      stateDir: join(dir, 'state'), env: {}, secretStore: createInMemorySecretStore(), serviceUrl: sandbox.url, apiKey: sandbox.apiKey,
    });
    const said: Attention[] = [];
    let saved = 0;
    core.onEvent((channel, payload) => {
      if (channel === 'app:attention') said.push(payload as Attention);
      if (channel === 'batches:progress') for (const b of (payload as { batches: Array<{ counts: { saved?: number } }> }).batches) saved = Math.max(saved, b.counts.saved ?? 0);
    });
    try {
      const dispatch = createInvokeDispatcher(contract, core.handlers);
      const created = await dispatch('batches:create', {
        workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [photos] }, output: { outputFolder: join(dir, 'out') },
      });
      expect(created.ok).toBe(true);
      await expect.poll(() => saved, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2);
      sandbox.setOutage(5_000);
      await expect.poll(() => said.map((a) => a.kind), { timeout: 20_000, interval: 50 }).toEqual(['batch-paused']);
      expect(said[0]!.title).toBe('Batch paused: the service is not answering');
      await expect.poll(() => said.map((a) => a.kind), { timeout: 60_000, interval: 100 }).toEqual(['batch-paused', 'batch-ended']);
      // Its body is the batch's own end: all 12 saved, or — when the outage cut a submission's answer (under load it
      // can) — 11 saved and 1 said to be maybe charged. Either way said once, and in the batch's numbers.
      expect(said[1]!.title).toBe('Batch done — Color Grade');
      expect(said[1]!.body).toMatch(/^(12 saved · 12 free test credits|11 saved, 1 may be charged without a result · 11 free test credits)$/);
      expect(said[1]!.body.startsWith(`${saved} saved`)).toBe(true);
    } finally {
      await core.shutdown({ graceful: false });
    }
  });
});
