import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-journal.ts at a tiny scale (200 items, one kill-and-restart round): it builds the journal, compacts it
// (every item removed, the saved count kept), reads a summary and a "Failed" window and times writes with the
// per-state counters' triggers and without, restarts a killed `batchroom resume` that then sends again, ends with
// its JSON metrics line and leaves no process behind. Times and sizes are the bench's to print, never asserted here.

describe('bench/scale-journal', () => {
  it('runs at BENCH_SCALE=0.002 and prints its metrics', { timeout: 240_000 }, async () => {
    const run = await runBench('scale-journal.ts', { BENCH_SCALE: '0.002', BENCH_JOURNAL_RESTARTS: '1' }, 220_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.metrics, run.stdout).toMatchObject({ items: 200, itemsCompacted: 200, savedAfter: 200, restartsRun: 2, restartsThatSent: 2 });
    // The counts part: 2 % failed, the counters' three triggers timed against the same writes without them.
    expect(run.metrics, run.stdout).toMatchObject({ failedItems: 4, countTriggers: 3 });
    expect(run.stdout).toMatch(/^batch summary at N=200: countByState [\d.]+ ms/m);
    expect(run.stdout).toMatch(/^state change write: with the counters' triggers p50 [\d.]+/m);
    expect(run.stdout).toMatch(/^journal bytes per finished item, N=200: \d+ B/m);
    expect(run.stdout).toMatch(/^ {2}after compaction: \d+ B/m);
    expect(run.stdout).toMatch(/^kill -9 mid-batch, N=200: /m);
    // The restart's steps on one time line (BATCHROOM_START_TRACE), from the launcher to the first submit, and the
    // floor beside them: two Node starts and the bundle's freshness check.
    expect(run.stdout).toMatch(/^ {2}where it went, ms since the spawn/m);
    const traced = [...(run.metrics as { recoveryTrace: { step: string }[] }).recoveryTrace, ...(run.metrics as { recoveryHeldTrace: { step: string }[] }).recoveryHeldTrace]
      .map((s) => s.step);
    expect(traced).toEqual(expect.arrayContaining(['launcher', 'worker', 'bundle-loaded', 'journal-migrated', 'recovery-swept', 'first-submit']));
    expect(run.metrics).toMatchObject({ twoStartsMs: expect.any(Number), freshCheckMs: expect.any(Number) });
    await run.groupGone();
  });
});
