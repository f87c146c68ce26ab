import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import { createLogger, type LogRecord } from '../../../main/core/log';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { openSettingsStore } from '../../../main/core/settings';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { until, within } from '../../helpers/until';
import { writePhotos } from '../engine/helpers';
import { useCoreTestBed } from './core-test-bed';

// A hot folder's batch is on its way into the engine when the host stops: createBatch asks the service for the
// workflow and the balance, and a hung service (here: 6 s of latency on every answer) keeps it there. Closing the
// folders waited for it, so the host's shutdown (Electron's quit, `watch`/`ui` stopping) waited for ever on a
// service that never answers. Now the folder stops waiting after 2 s and abandons the batch: nothing is journalled
// for it, and the next start sends the photo — once. A service that answers within the 2 s journals the batch before
// the close ends: the next start resumes it from the journal, and the folder does not send the photo again.

const bed = useCoreTestBed('core-hot-hang');

describe('createCore with a hot-folder batch stuck in createBatch (the service does not answer)', () => {
  it.each([
    { hungMs: 6_000, what: 'abandoned at the bound' },
    { hungMs: 1_000, what: 'journalled before the bound' },
  ])('shuts down within a bound, and the next start sends the photo exactly once ($what)', async ({ hungMs }) => {
    const hot = join(bed.dir, `hot-${hungMs}`);
    const stateDir = join(bed.dir, `state-${hungMs}`);
    const out = join(bed.dir, `out-${hungMs}`);
    await mkdir(hot, { recursive: true });
    openSettingsStore({ stateDir }).update({
      hotFolders: [HotFolderConfigSchema.parse({
        id: 'hf', path: hot, workflowId: 'auto-enhance', outputFolder: out, enabled: true, existingFiles: 'process',
      })],
    });
    const executes = bed.executes;
    const before = executes();
    const warnings: LogRecord[] = [];
    const start = () => startCore(stateDir, warnings);

    const core = await start();
    bed.sandbox.setFaults({ latencyMs: hungMs });
    await writePhotos(hot, 1);
    // Queued, then handed to the engine within the batching window: createBatch now waits on the service.
    await until(() => (core.hotFolders?.get('hf').status.queued ?? 0) > 0, 'the photo queued', { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const began = Date.now();
    await expect(within(core.shutdown({ graceful: true, timeoutMs: 10_000 }), 4_500)).resolves.toBe('done');
    expect(Date.now() - began).toBeLessThan(4_500);
    const abandoned = warnings.some((w) => w.message === 'hot folder closed without waiting any longer' && w.fields?.batches);
    expect(abandoned).toBe(hungMs > 2_000);

    // The service answers an abandoned createBatch after all: it journals nothing (and does not crash the process).
    bed.sandbox.setFaults({ latencyMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, hungMs));
    if (hungMs > 2_000) expect(executes()).toBe(before);

    const again = await start();
    try {
      const results = async () => (await readdir(out).catch(() => [])).filter((name) => name.endsWith('.jpg'));
      await until(async () => (await results()).length > 0, 'the result saved', { timeoutMs: 15_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a second submission would have gone by now
      expect(executes()).toBe(before + 1);
      expect(await results()).toHaveLength(1);
    } finally {
      await again.shutdown({ graceful: true, timeoutMs: 10_000 });
    }
  }, 40_000);

  it('does not let hot folders that never close hold up the shutdown: the engine stops after 5 s, with a warning', async () => {
    const stateDir = join(bed.dir, 'state-stuck');
    const warnings: LogRecord[] = [];
    const core = await startCore(stateDir, warnings);
    // Whatever a folder is stuck on (a watcher that never closes, a background arm): the host's quit must still end.
    core.hotFolders!.close = () => new Promise<never>(() => undefined);
    await expect(within(core.shutdown({ graceful: true, timeoutMs: 10_000 }), 8_000)).resolves.toBe('done');
    expect(warnings.map((w) => w.message)).toContain('hot folders did not close in time: stopping the engine without them');
  }, 20_000);
});

function startCore(stateDir: string, warnings: LogRecord[]) {
  return createCore({
    host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` },
    stateDir, env: {}, secretStore: createInMemorySecretStore(), serviceUrl: bed.sandbox.url, apiKey: bed.sandbox.apiKey, startHotFolders: true,
    logger: createLogger({ sink: (record) => record.level === 'warn' && warnings.push(record), minLevel: 'warn' }),
  });
}
