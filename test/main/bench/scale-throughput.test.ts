import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-throughput.ts at a tiny scale in its own process (its own fixture folder, small photos): the bench
// runs end to end and reports what it measured. Only functional results are checked — counts, the metrics line,
// nothing left running — never a time or a rate's size.

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('bench/scale-throughput.ts', () => {
  it('runs the engine and the bare loops on the same photos and prints one metrics line', async () => {
    const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-throughput-test-'));
    roots.push(root);
    const run = await runBench('scale-throughput.ts', { BENCH_SCALE: '0.04', BENCH_FIXTURE_ROOT: root, BENCH_PHOTO_SIZE: '1600x1072' }, 220_000);
    expect(run.code, run.stderr).toBe(0);
    const metrics = run.metrics!;
    expect(metrics.photos).toBe(4);
    // Both ways: the sandbox doing every photo's image work, and reusing one result per size (issue 34 #6).
    expect(metrics.engineExecutions).toBe(4);
    expect(metrics.engineReusedExecutions).toBe(4);
    for (const key of ['engineFps', 'engineReusedFps', 'bareSequentialFps', 'bareTwoInFlightFps', 'bareBestFps', 'engineOverBare', 'engineReusedOverBare']) {
      expect(metrics[key], key).toBeGreaterThan(0);
    }
    // The result's metadata is written by the engine's own ExifTool, found and counted apart from the sandbox.
    expect(metrics.engineExiftoolCpuMsPerPhoto).toBeGreaterThan(0);
    expect(metrics.bareBestFps).toBe(Math.max(metrics.bareSequentialFps as number, metrics.bareTwoInFlightFps as number));
    expect(metrics.goal).toBe(0.9);
    expect(typeof metrics.engineMet).toBe('boolean');
    expect(typeof metrics.engineReusedMet).toBe('boolean');
    expect(run.stdout).toMatch(/sandbox doing every photo's image work[^]*engine \/ best bare loop .*goal ≥ 0\.9: (met|MISSED)/);
    expect(run.stdout).toMatch(/sandbox reusing one result per size[^]*engine \/ best bare loop .*goal ≥ 0\.9: (met|MISSED)/);
    // The 4 photos were made in the test's own folder, and nothing is left half-written there.
    const made = await readdir(join(root, 'camera-1600x1072'));
    expect(made.sort()).toEqual(['p000.jpg', 'p001.jpg', 'p002.jpg', 'p003.jpg']);
    // Nothing of the bench's outlives it (the sandbox is its child).
    await run.groupGone();
  }, 240_000);
});
