import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueCopy } from '../../../bench/_memory-samples';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';
import { waitForBatch } from './helpers';

// Issue 34, item 2 ("memory stays flat"): what the runner keeps in memory is bounded by the window in flight
// (concurrency, the encode prefetch), never by the size of a batch — and nothing of a batch is kept once it ended
// (an engine runs for weeks in the app and under hot folders). Structural sizes, never RSS.

const N = 200;
const CONCURRENCY = 4;
let rig: SandboxRig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function photos(folder: string, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  const base = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 30, g: 120, b: 200 } } }).jpeg().toBuffer();
  await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(folder, `p${i}.jpg`), uniqueCopy(base, i))));
}

describe('the runner holds a window, not the batch', { timeout: 300_000 }, () => {
  it(`${N} photos at concurrency ${CONCURRENCY}: ready payloads, executions and originals stay within the window; nothing per item is left after`, async () => {
    rig = await startSandboxRig({ executionDurationMs: 20, credits: 100_000, concurrency: CONCURRENCY, engine: { requestsPerSecond: 5_000 } });
    const input = join(rig.dir.path, 'in');
    await photos(input, N);
    const max: Record<string, number> = {};
    const sample = () => {
      for (const [key, value] of Object.entries(rig!.engine.stats().held ?? {})) max[key] = Math.max(max[key] ?? 0, value);
    };
    const timer = setInterval(sample, 10);
    try {
      const { id } = await rig.engine.createBatch({
        workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') },
      });
      const done = await waitForBatch(rig.engine, id, { timeoutMs: 280_000 });
      expect(done.counts.saved).toBe(N);
    } finally {
      clearInterval(timer);
    }
    sample();
    // During the run: the window. The prefetch is min(C, 8) + the encoders (≤ 4); executions ≤ C. No source path of
    // the batch lies inside its output folder, so none needs keeping to protect it.
    expect(max.flights).toBeLessThanOrEqual(CONCURRENCY);
    expect(max.ready).toBeLessThanOrEqual(CONCURRENCY + 4);
    expect(max.encoding).toBeLessThanOrEqual(4);
    expect(max.originals).toBe(0);
    expect(max.batches).toBe(1);
    // After it: nothing of its items (the batch's own record may be cached again by whoever reads it).
    expect(rig.engine.stats().held).toMatchObject({ ready: 0, originalsBatches: 0, originals: 0, flights: 0, downloads: 0, encoding: 0 });
  });

  it('a batch saving beside its originals keeps exactly those paths while it runs, and drops them when it ends', async () => {
    rig = await startSandboxRig({ executionDurationMs: 20, credits: 1_000, concurrency: 4, engine: { requestsPerSecond: 5_000 } });
    const input = join(rig.dir.path, 'in');
    await photos(input, 6);
    let kept = 0;
    const timer = setInterval(() => { kept = Math.max(kept, rig!.engine.stats().held?.originals ?? 0); }, 5);
    try {
      const { id } = await rig.engine.createBatch({
        workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] },
        output: { outputFolder: input, namingTemplate: '{name}{ext}', collisionPolicy: 'overwrite' },
      });
      const done = await waitForBatch(rig.engine, id);
      expect(done.counts.saved).toBe(6);
      // Never written over: each result took a suffix (the protection the kept paths are for).
      for (const item of rig.engine.listItems({ batchId: id }).items) expect(item.outputs[0]).toMatch(/ \(2\)\.jpg$/);
    } finally {
      clearInterval(timer);
    }
    expect(kept).toBe(6);
    expect(rig.engine.stats().held).toMatchObject({ originalsBatches: 0, originals: 0 });
  });
});
