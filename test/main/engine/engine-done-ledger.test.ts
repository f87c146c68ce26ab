import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSkip } from '../../../shared/engine/skip-text';
import type { Engine } from '../../../main/core/engine';
import type { ServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// The done ledger (content + workflow + parameters) applies to the app's batches as it does to hot folders: the
// same batch twice charges once; `rerun` pays again; a photo whose earlier result is gone is offered again.

describe('done ledger: a photo is paid for once', () => {
  let rig: SandboxRig;
  let sandbox: RunningSandbox;
  let dir: SandboxRig['dir'];
  let client: ServiceClient;
  let engine: Engine;

  beforeEach(async () => {
    // Lost submissions stay unknown here, as in studio mode: balance-evidence.test.ts covers judging them.
    rig = await startSandboxRig({ credits: 100, engine: { balanceEvidence: false } });
    ({ sandbox, dir, client, engine } = rig);
  });

  afterEach(() => rig.close());

  /** `count` new photos in dir/in, and a color-grade batch of that folder into dir/out. */
  const gradeSpecFor = async (count: number) => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, count);
    return { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
  };

  const balance = async () => (await client.getBalance()).apiCredits;

  it('skips what is done, reports it, pays again only on rerun, and offers a photo again when its result is gone', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 3);
    const output = join(dir.path, 'out');
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: output } };
    const start = await balance();

    const first = await engine.createBatch(spec);
    expect((await waitForBatch(engine, first.id)).counts.saved).toBe(3);
    expect(sandbox.stats().executionsCreated).toBe(3);
    expect(await balance()).toBe(start - 3);

    // The same batch again: nothing to pay, and the estimate says why.
    const again = await engine.estimate(spec);
    expect(again).toMatchObject({ itemCount: 0, totalCost: 0, rerun: false, namingPreview: [] });
    expect(again.alreadyDone).toHaveLength(3);
    expect(again.alreadyDone[0]!.outputs[0]!.startsWith(output)).toBe(true);
    await expect(engine.createBatch(spec)).rejects.toMatchObject({ code: 'validation' });
    expect(sandbox.stats().executionsCreated).toBe(3);
    expect(await balance()).toBe(start - 3);

    // An earlier result deleted: that photo is offered again, with its cost; the others stay skipped.
    const firstOutputs = engine.listItems({ batchId: first.id }).items.flatMap((i) => i.outputs).sort();
    await unlink(firstOutputs[1]!);
    const gone = await engine.estimate(spec);
    expect(gone).toMatchObject({ itemCount: 1, totalCost: 1 });
    expect(gone.resultsGone.map((g) => g.outputs)).toEqual([[firstOutputs[1]]]);
    expect(gone.alreadyDone).toHaveLength(2);
    const refill = await engine.createBatch(spec);
    const refilled = await waitForBatch(engine, refill.id);
    expect(refilled).toMatchObject({ creditsSpent: 1 });
    expect(refilled.counts.skipped).toBe(2);
    // The reason each skipped item keeps is read in the CLI's summary and the app's queue: it names both ways to pay
    // again, not the app-only "run again" (issue 31 leftover).
    for (const item of engine.listItems({ batchId: refill.id }).items.filter((i) => i.state === 'skipped')) {
      expect(item.reason).toMatch(/^already done on \d{4}-\d{2}-\d{2} — results in .*: not sent again \(to pay for it again: --rerun, or "Run them again" in the app\)$/);
    }
    expect(sandbox.stats().executionsCreated).toBe(4);
    expect((await readdir(output)).sort()).toEqual(firstOutputs.map((p) => p.slice(output.length + 1)));

    // Asked for explicitly: all three run and are paid again, under new names beside the old results.
    const rerunEstimate = await engine.estimate({ ...spec, rerun: true });
    expect(rerunEstimate).toMatchObject({ itemCount: 3, totalCost: 3, rerun: true });
    expect(rerunEstimate.namingPreview.map((n) => n.output.slice(output.length + 1))).toEqual([
      'photo-000_color-grade (2).jpg', 'photo-001_color-grade (2).jpg', 'photo-002_color-grade (2).jpg',
    ]);
    const rerun = await engine.createBatch({ ...spec, rerun: true });
    expect((await waitForBatch(engine, rerun.id)).creditsSpent).toBe(3);
    expect(sandbox.stats().executionsCreated).toBe(7);
    expect(await balance()).toBe(start - 7);
    const rerunOutputs = engine.listItems({ batchId: rerun.id }).items.flatMap((i) => i.outputs).sort();
    expect(rerunOutputs).toEqual(rerunEstimate.namingPreview.map((n) => n.output).sort());
  });

  it('a different parameter is a different photo for the ledger', async () => {
    const spec = await gradeSpecFor(2);
    await waitForBatch(engine, (await engine.createBatch(spec)).id);
    const cool = await engine.estimate({ ...spec, parameters: { texts: { look: 'cool' } } });
    expect(cool).toMatchObject({ itemCount: 2, alreadyDone: [] });
  });

  it('knows a photo given as a one-field mapping, and "re-run" of chosen items runs and pays even when done', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    const [photo] = await writePhotos(input, 1);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [photo!] }, output: { outputFolder: join(dir.path, 'out') } };
    const first = await engine.createBatch(spec);
    await waitForBatch(engine, first.id);
    const mapped = await engine.estimate({ ...spec, inputs: { mappings: [{ photo: photo! }] } });
    expect(mapped).toMatchObject({ itemCount: 0, alreadyDone: [{ path: 'photo-000.jpg' }] });
    const [item] = engine.listItems({ batchId: first.id }).items;
    const again = await engine.rerun([item!.id], { texts: { look: 'warm' } });
    expect((await waitForBatch(engine, again.id)).creditsSpent).toBe(1);
    expect(sandbox.stats().executionsCreated).toBe(2);
  });

  it('holds back a photo whose earlier submission may have been charged (answer lost) until the user says to pay again', async () => {
    const spec = await gradeSpecFor(2);
    // The service runs and charges each execution, but its answer never arrives.
    const answerLost: ServiceClient = Object.assign(Object.create(client) as ServiceClient, {
      execute: async (...args: Parameters<ServiceClient['execute']>) => {
        await client.execute(...args);
        return { kind: 'unknown' as const, reason: 'the connection broke after the request was sent' };
      },
    });
    engine = await rig.restart({ client: answerLost });
    const first = await engine.createBatch(spec);
    expect((await waitForBatch(engine, first.id)).counts.unknown).toBe(2);
    expect(sandbox.stats().executionsCreated).toBe(2);

    const again = await engine.estimate(spec);
    expect(again).toMatchObject({ itemCount: 0, totalCost: 0 });
    expect(again.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/answer was lost: it may have been charged/), expect.stringMatching(/may have been charged/)]);
    // The way to pay again is each surface's own: the CLI's is a flag (issue 31 #20), the app keeps its words.
    expect(again.skipped.map((s) => describeSkip(s, 'cli'))).toEqual([expect.stringMatching(/dashboard, or run again with --rerun to pay for it again$/), expect.stringMatching(/with --rerun to pay/)]);
    expect(describeSkip(again.skipped[0]!, 'app')).toMatch(/dashboard, or run again to pay for it again$/);
    await expect(engine.createBatch(spec)).rejects.toMatchObject({ code: 'validation' });
    expect((await engine.estimate({ ...spec, rerun: true })).itemCount).toBe(2);
  });

  it('after a crash mid-submit, the photos left unknown are in the ledger too', async () => {
    const spec = await gradeSpecFor(2);
    // The process dies while both submissions are on the wire (their answers never come).
    // On the wire means the POST left: `submitting` is journalled (and made durable) before it, so the state alone
    // does not say so — a stop before the POST puts the photo back with nothing sent.
    let posted = 0;
    const hanging: ServiceClient = Object.assign(Object.create(client) as ServiceClient, { execute: () => { posted++; return new Promise<never>(() => {}); } });
    engine = await rig.restart({ client: hanging });
    const first = await engine.createBatch(spec);
    const deadline = Date.now() + 10_000;
    while (posted < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(posted).toBe(2);
    expect(engine.listItems({ batchId: first.id }).items.map((i) => i.state)).toEqual(['submitting', 'submitting']);
    engine = await rig.restart({ graceful: false });
    expect(engine.listItems({ batchId: first.id }).items.map((i) => i.state)).toEqual(['unknown', 'unknown']);
    expect(await engine.estimate(spec)).toMatchObject({ itemCount: 0, skipped: [{ reason: expect.stringMatching(/may have been charged/) }, { reason: expect.stringMatching(/may have been charged/) }] });
  });
});
