import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { listFilesDeep, makeTempDir, waitForBatch, writePhotos, type TempDir } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// A fast service and a slow machine (or disk): results finish at the service faster than they are saved here. The
// engine sends no more work while more results wait to be saved than it saves at once plus its execution slots —
// otherwise the queue of finished, paid results grows without bound and outlives the service's result lifetime
// (found at 20,000 photos under load: 7,809 paid results expired unsaved, 5,208 more waiting).

const CONCURRENCY = 4;
const DOWNLOADS_AT_ONCE = 1;
const SAVE_MS = 150;
const PHOTOS = 30;

describe('saving slower than the service', () => {
  let rig: SandboxRig | undefined;
  let config: TempDir | undefined;
  afterEach(async () => {
    await rig?.close();
    await config?.cleanup();
    rig = undefined;
  });

  it('holds new submissions while results wait to be saved: the backlog stays bounded, every photo sent and saved once', { timeout: 60_000 }, async () => {
    let writer: ResultMetadataWriter | undefined;
    const slowWriter = (configDir: string): ResultMetadataWriter => {
      const real = createResultMetadataWriter({ configDir, creatorTool: 'test' });
      writer = Object.assign(Object.create(real) as ResultMetadataWriter, {
        apply: async (...args: Parameters<ResultMetadataWriter['apply']>) => {
          await new Promise((resolve) => setTimeout(resolve, SAVE_MS));
          return real.apply(...args);
        },
      });
      return writer;
    };
    config = await makeTempDir('batchroom-backlog-exiftool-');
    rig = await startSandboxRig({
      concurrency: CONCURRENCY, executionDurationMs: 10, credits: 1_000,
      engine: { downloadConcurrency: DOWNLOADS_AT_ONCE, resultMetadata: slowWriter(config.path) },
    });
    expect(writer).toBeDefined();
    const input = join(rig.dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, PHOTOS);
    const out = join(rig.dir.path, 'out');
    const batch = await rig.engine.createBatch({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: out } });

    let mostWaiting = 0;
    const sampler = setInterval(() => {
      mostWaiting = Math.max(mostWaiting, rig!.journal.countByState(batch.id).downloading ?? 0);
    }, 5);
    try {
      const done = await waitForBatch(rig.engine, batch.id, { timeoutMs: 50_000 });
      expect(done.counts.saved).toBe(PHOTOS);
    } finally {
      clearInterval(sampler);
    }
    // Held once DOWNLOADS_AT_ONCE + CONCURRENCY wait; the executions already at the service may still finish.
    expect(mostWaiting).toBeGreaterThan(0);
    expect(mostWaiting).toBeLessThanOrEqual(2 * CONCURRENCY + DOWNLOADS_AT_ONCE);
    expect(rig.sandbox.stats().executionsCreated).toBe(PHOTOS);
    expect((await listFilesDeep(out)).filter((f) => f.endsWith('.jpg'))).toHaveLength(PHOTOS);
  });
});
