import { describe, expect, it } from 'vitest';
import type { BatchEstimate } from '../../../shared/engine/model';
import type { EstimateProgress } from '../../../shared/ipc/channels/batches';
import { createEstimateRuns } from '../../../main/core/engine/estimate-runs';
import type { PlanOptions } from '../../../main/core/engine/planner';

// What the hosts hear of a running estimate: nothing in its first second, then at most 5 words a second; and one
// cancel that stops every estimate running.

describe('estimate runs', () => {
  it('says nothing of a quick estimate, then at most every 200 ms', async () => {
    let clock = 0;
    const runs = createEstimateRuns(() => clock);
    const heard: EstimateProgress[] = [];
    runs.onProgress((p) => heard.push(p));
    await runs.run(async ({ onProgress }: PlanOptions) => {
      for (const [at, done] of [[100, 1], [999, 2], [1_000, 3], [1_100, 4], [1_200, 5], [1_450, 6]] as const) {
        clock = at;
        onProgress!({ phase: 'reading', done, total: 10 });
      }
      return { itemCount: 10 } as BatchEstimate;
    });
    expect(heard.map((p) => [p.done, p.elapsedMs])).toEqual([[3, 1_000], [5, 1_200], [6, 1_450]]);
  });

  it('cancels every estimate running, and none that has ended', async () => {
    const runs = createEstimateRuns();
    const signals: AbortSignal[] = [];
    const hold = (options: PlanOptions) => new Promise<BatchEstimate>((_, reject) => {
      signals.push(options.signal!);
      options.signal!.addEventListener('abort', () => reject(new Error('cancelled')));
    });
    const a = runs.run(hold);
    const b = runs.run(hold);
    expect(runs.cancelAll()).toBe(2);
    await expect(a).rejects.toThrow('cancelled');
    await expect(b).rejects.toThrow('cancelled');
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(runs.cancelAll()).toBe(0);
  });
});
