import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-temp-sweep.ts at a small scale in its own process: migration 15 of a schema-14 journal and both sweep
// rules on the same temps. Only functional results are checked — counts, what each rule removed, the metrics line,
// nothing left running — never a time.

describe('bench/scale-temp-sweep.ts', () => {
  it('migrates a schema-14 journal, sweeps the same temps both ways and prints one metrics line', async () => {
    const run = await runBench('scale-temp-sweep.ts', { BENCH_SCALE: '0.003' }, 50_000);
    expect(run.code, run.stderr).toBe(0);
    const metrics = run.metrics!;
    expect(metrics.items).toBe(300);
    expect(metrics.counted).toBe(300);
    expect(metrics.temps).toBe(30);
    // Before: every temp dated back went, another journal's included; now that third stays.
    expect(metrics.removedBefore).toBe(30);
    expect(metrics.removedAfter).toBe(20);
    for (const key of ['migrationMs', 'sweepBeforeUsPerTemp', 'sweepAfterUsPerTemp']) expect(metrics[key], key).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/ratio [\d.]+ \(goal ≤ 2\) (met|MISSED)/);
    await run.groupGone();
  }, 60_000);
});
