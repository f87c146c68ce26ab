import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-memory.ts at a tiny scale (10 photos through the engine, 10 through the real CLI): it runs end to end,
// every photo is saved by both, it ends with its JSON metrics line, and leaves no process behind (sandbox, engine
// child, CLI and its relaunch are of its group). Times and memory figures are the bench's to print, never asserted.

describe('bench/scale-memory', () => {
  it('runs at BENCH_SCALE=0.0001 and prints its metrics', { timeout: 240_000 }, async () => {
    const run = await runBench('scale-memory.ts', { BENCH_SCALE: '0.0001' }, 220_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.metrics).toMatchObject({ items: 10, engineItems: 10, engineSaved: 10, cliItems: 10, cliSaved: 10 });
    expect(run.metrics!.enginePeakRssMB).toBeGreaterThan(0);
    expect(run.metrics!.cliPeakRssMB).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^engine: 10 photos, 10\/10 saved/m);
    expect(run.stdout).toMatch(/^cli: 10 photos, 10\/10 saved/m);
    await run.groupGone();
  });
});
