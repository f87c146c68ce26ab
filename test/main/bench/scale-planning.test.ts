import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-planning.ts at a tiny scale (10 and 50 photos, the built CLI at 50): it runs end to end, every estimate
// counts every photo, Start after the estimate reads no file, it ends with its JSON metrics line and leaves no
// process behind (the CLI and its relaunch are of its group). Times and ratios are the bench's to print, never
// asserted here.

describe('bench/scale-planning', () => {
  it('runs at BENCH_SCALE=0.0005 and prints its metrics', { timeout: 240_000 }, async () => {
    const run = await runBench('scale-planning.ts', { BENCH_SCALE: '0.0005' }, 220_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.metrics, run.stdout).toMatchObject({ points: [10, 50], countsRight: true, cliCounts: [50, 50], startReads: 0, startTotal: 10 });
    expect(run.metrics!.n50).toMatchObject({ coldCount: 50, warmCount: 50 });
    expect(run.stdout).toMatch(/^N=50: estimate cold .* counted 50\/50 of 50/m);
    // Both readings of the growth per photo, beyond the fixed cost and raw, cold and warm, in the line and in the JSON.
    expect(run.stdout).toMatch(/^ms per photo, cold, N=50 ÷ N=10 beyond the fixed cost: .* raw \(fixed cost included\)/m);
    expect(run.stdout).toMatch(/^ms per photo, warm, N=50 ÷ N=10 beyond the fixed cost: /m);
    for (const key of ['growth', 'growthRaw', 'linearity', 'linearityRaw', 'warmGrowth', 'warmLinearity', 'warmGrowthRaw', 'warmLinearityRaw']) {
      expect(typeof run.metrics![key], key).toBe('number');
    }
    expect(run.stdout).toMatch(/^built CLI, N=50: .* counted 50\/50/m);
    // Given a moment: ExifTool's perl ends after the bench closed its pipes.
    await run.groupGone();
  });
});
