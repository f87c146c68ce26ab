import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlanProgress } from '../../../main/core/engine/planner';
import { createEngine } from '../../../main/core/engine';
import { fileFactReads } from '../../../main/core/images/file-facts';
import { until } from '../../helpers/until';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { useEngineTestBed, writePhotos } from './helpers';

// Issue 34, item 1: an estimate reads each photo once, Start after it reads none again (only its identity is looked
// at), the next estimate in a new engine on the same state folder reads none either, and an estimate can be followed
// and cancelled.

const PHOTOS = 12;
/** A file changed in the last 2 s is never kept (file-facts.ts): the photos must be older than that. */
const settle = () => new Promise((r) => setTimeout(r, 2_100));

describe('engine: what the estimate reads, and what Start does not read again', () => {
  const bed = useEngineTestBed();
  const spec = () => ({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });

  it('reads every photo once for the estimate, none between it and the first submit, none for the next estimate of a new engine', async () => {
    await writePhotos(bed.input, PHOTOS);
    await settle();
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2 }));
    await engine.start();

    const progress: PlanProgress[] = [];
    const before = fileFactReads();
    const estimate = await engine.estimate(spec(), { onProgress: (p) => progress.push(p) });
    expect(estimate.itemCount).toBe(PHOTOS);
    expect(fileFactReads() - before).toBe(PHOTOS);
    expect(progress.at(-1)).toEqual({ phase: 'reading', done: PHOTOS, total: PHOTOS });

    const afterEstimate = fileFactReads();
    const batch = await engine.createBatch(spec());
    expect(batch.total).toBe(PHOTOS);
    await until(() => client.executeCalls() >= 1, 'the first submit');
    expect(fileFactReads() - afterEstimate).toBe(0);

    await bed.stopEngine();
    const warm = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 1 }));
    const beforeWarm = fileFactReads();
    const again = await warm.estimate({ ...spec(), rerun: true, output: { outputFolder: join(bed.dir.path, 'out-2') } });
    expect(again.itemCount).toBe(PHOTOS);
    expect(again.resultFile?.largestOriginalEdge).toBe(estimate.resultFile?.largestOriginalEdge);
    expect(fileFactReads() - beforeWarm).toBe(0);
  });

  it('stops reading when cancelled part-way, and rejects as cancelled', async () => {
    const many = 60; // 8 are read at once (planner.ts): far more than that, so stopping early shows
    await writePhotos(bed.input, many);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 1 }));
    const controller = new AbortController();
    const before = fileFactReads();
    const estimate = engine.estimate(spec(), {
      signal: controller.signal,
      onProgress: (p) => { if (p.phase === 'reading' && p.done >= 2) controller.abort(); },
    });
    await expect(estimate).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((r) => setTimeout(r, 200)); // reads already started may finish; no new one starts
    expect(fileFactReads() - before).toBeLessThan(many);
    expect(engine.listBatches()).toEqual([]);
  });
});
