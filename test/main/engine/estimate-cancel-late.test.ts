import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { useEngineTestBed, writePhotos } from './helpers';

// Review of issue 34: a cancel that arrives once the last photo is read (while the balance is read and the estimate
// built: seconds at 100k) is ignored — the estimate resolves and the CLI's Ctrl-C handler lets `run --yes` go on.
describe('engine: cancel after the reading loop', () => {
  const bed = useEngineTestBed();
  it('an estimate cancelled before it answered rejects as cancelled', async () => {
    await writePhotos(bed.input, 3);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 1 }));
    const controller = new AbortController();
    const estimate = engine.estimate(
      { workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } },
      { signal: controller.signal, onProgress: (p) => { if (p.phase === 'reading' && p.done === p.total && p.total > 0) controller.abort(); } },
    );
    await expect(estimate).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('estimate runs: a cancel that lands once planning answered', () => {
  it('still rejects as cancelled (the host never gets a price it could pay)', async () => {
    const { createEstimateRuns } = await import('../../../main/core/engine/estimate-runs');
    const runs = createEstimateRuns();
    let finish!: () => void;
    // Planning has nothing left to check the signal with: it ignores it, as the balance read and buildEstimate do.
    const estimate = runs.run(() => new Promise((resolve) => { finish = () => resolve({ itemCount: 1 } as never); }));
    expect(runs.cancelAll()).toBe(1);
    finish();
    await expect(estimate).rejects.toMatchObject({ code: 'cancelled' });
  });
});
