import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Try first: a few photos spread across the selection, then "Continue" with the rest — the tried photos are neither
// uploaded nor paid for again.

describe('try first, then continue', () => {
  let rig: SandboxRig;
  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 100 });
  });
  afterEach(() => rig.close());

  it('tries 3 of 12 spread across the batch, then runs the other 9 only: 12 credits in all, 12 executions', async () => {
    const input = join(rig.dir.path, 'in');
    await mkdir(input, { recursive: true });
    const photos = await writePhotos(input, 12);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') } };

    const estimate = await rig.engine.estimate({ ...spec, tryFirst: 3 });
    expect(estimate).toMatchObject({ itemCount: 3, totalCost: 3, trial: { tried: 3, rest: 9 } });
    // The first, middle and last part of the shoot, not three neighbours.
    expect(estimate.namingPreview.map((n) => basename(n.source))).toEqual(['photo-002.jpg', 'photo-006.jpg', 'photo-010.jpg']);

    const tried = await rig.engine.createBatch({ ...spec, tryFirst: 3 });
    expect(tried).toMatchObject({ total: 3, trialRest: 9 });
    expect((await waitForBatch(rig.engine, tried.id)).counts.saved).toBe(3);

    const rest = await rig.engine.continueTrial(tried.id);
    expect(rest.trialRest).toBeNull();
    const done = await waitForBatch(rig.engine, rest.id);
    // The continue batch is the other 9 only: the tried 3 are the try's, not items of this batch (issue 31 #14).
    expect(done.total).toBe(9);
    expect(done.counts).toMatchObject({ saved: 9, skipped: 0 });
    expect(done.creditsSpent).toBe(9);
    expect(rig.journal.listExecutions()).toHaveLength(12);
    expect((await rig.client.getBalance()).apiCredits).toBe(100 - 12);
    const sources = [tried.id, rest.id].flatMap((id) => rig.engine.listItems({ batchId: id }).items.filter((i) => i.state === 'saved').map((i) => Object.values(i.sources)[0]));
    expect(new Set(sources).size).toBe(12);
    expect([...sources].sort()).toEqual([...photos].sort());
  });

  it('continuing counts neither the tried photos nor the output folder inside the input folder (issue 31 #14)', async () => {
    const input = join(rig.dir.path, 'shoot');
    await mkdir(input, { recursive: true });
    const photos = await writePhotos(input, 8);
    // No output folder named: results go to shoot/Batchroom, inside the folder the batch reads.
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: '' } };
    const tried = await rig.engine.createBatch({ ...spec, tryFirst: 2 });
    expect((await waitForBatch(rig.engine, tried.id)).counts.saved).toBe(2);
    expect(tried.outputFolder).toBe(join(input, 'Batchroom'));

    const estimate = await rig.engine.estimate(spec);
    expect(estimate).toMatchObject({ itemCount: 6, totalCost: 6, skipped: [] });
    const rest = await rig.engine.continueTrial(tried.id);
    expect(rest.total).toBe(6);
    const done = await waitForBatch(rig.engine, rest.id);
    expect(done).toMatchObject({ total: 6, counts: expect.objectContaining({ saved: 6, skipped: 0 }), creditsSpent: 6 });
    const items = rig.engine.listItems({ batchId: rest.id }).items;
    expect(items.map((i) => Object.values(i.sources)[0]).sort()).toEqual(photos.filter((p) => !rig.engine.listItems({ batchId: tried.id }).items.some((t) => Object.values(t.sources)[0] === p)).sort());

    // The same batch made again (the CLI's "same command without --try") is the same rest: nothing of the try in it.
    const again = await rig.engine.estimate(spec);
    expect(again.itemCount).toBe(0);
    expect(again.skipped).toEqual([]);
    expect(again.alreadyDone).toHaveLength(8);
  });

  it('a selection no larger than the try is the whole batch; continuing a batch that was not a try is refused', async () => {
    const input = join(rig.dir.path, 'small');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 2);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out2') } };
    expect(await rig.engine.estimate({ ...spec, tryFirst: 3 })).toMatchObject({ itemCount: 2, trial: { tried: 2, rest: 0 } });
    const plain = await rig.engine.createBatch(spec);
    await expect(rig.engine.continueTrial(plain.id)).rejects.toMatchObject({ code: 'conflict' });
  });
});
