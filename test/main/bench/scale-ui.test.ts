import { describe, expect, it } from 'vitest';
import { runBench } from './bench-child';

// bench/scale-ui.ts at a tiny scale in its own process group: the counts right, the renderer holding a window,
// nothing left running. Frame times are the bench's to print, never asserted here.

describe('bench/scale-ui.ts at BENCH_SCALE 0.002 (200 items)', () => {
  it('ends with one JSON line: the counts right, the renderer holding a window, nothing left running', async () => {
    const run = await runBench('scale-ui.ts', { BENCH_SCALE: '0.002' }, 220_000);
    expect(run.code).toBe(0);
    const metrics = run.metrics as unknown as {
      items: number; filter: { rowCount: number; expected: number }; heldAfterScroll: number; itemsSent: number; journal: { items: number; failed: number }; review: { position: string };
      cpuByKindPerFrame: Record<string, number>; domPerFrame: { added: number; removed: number }; loadSteps: { scriptAt: number; bridgeAt: number; firstRowsAt: number };
    };
    expect(metrics.items).toBe(200);
    expect(metrics.filter.rowCount).toBe(metrics.filter.expected);
    expect(metrics.filter.expected).toBeGreaterThan(0);
    expect(metrics.journal).toMatchObject({ items: 200, failed: 4 });
    expect(metrics.heldAfterScroll).toBeLessThanOrEqual(200);
    expect(metrics.review.position).toMatch(/^1 of \d+/);
    // Where the traced frames' CPU went and what the DOM did: every kind reported; the page's load steps in order.
    expect(Object.keys(metrics.cpuByKindPerFrame).sort()).toEqual(['layout', 'other', 'paint', 'script', 'style']);
    expect(metrics.domPerFrame.added).toBeGreaterThanOrEqual(0);
    expect(metrics.loadSteps.bridgeAt).toBeGreaterThanOrEqual(metrics.loadSteps.scriptAt);
    expect(metrics.loadSteps.firstRowsAt).toBeGreaterThan(metrics.loadSteps.bridgeAt);
    await run.groupGone();
  }, 240_000);
});
