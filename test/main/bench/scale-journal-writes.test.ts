import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-journal-writes.ts at its smallest scale in its own process: it drives the engine's writes through a
// journal on disk both ways and reports what it measured. Only functional results are checked — counts, the
// metrics line, the group commit's sharing, nothing left running — never a time.

describe('bench/scale-journal-writes.ts', () => {
  it('times both ways of writing and prints one metrics line', async () => {
    const run = await runBench('scale-journal-writes.ts', { BENCH_SCALE: '0.002' }, 110_000);
    expect(run.code, run.stderr).toBe(0);
    const metrics = run.metrics!;
    expect(metrics.items).toBe(200);
    expect(metrics.timedPhotos).toBe(40);
    for (const key of ['writeP95Ms', 'fullWriteP95Ms', 'durableWriteP95Ms', 'fullDurableP95Ms', 'bareFsyncP95Ms']) expect(metrics[key], key).toBeGreaterThan(0);
    // 32 callers at once: the first starts a sync, the 31 that came while it ran share the next one.
    expect(metrics.syncsFor32Submits).toBe(2);
    expect(run.stdout).toMatch(/p95 [\d.]+ ms \(goal ≤ 2\) (met|MISSED)/);
    await run.groupGone();
  }, 120_000);
});
