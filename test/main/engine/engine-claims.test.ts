import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForBatch, writePhotos, tempFilesIn } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// One claim per paid unit (shared/engine/claim-states.ts, journal/claims.ts): a second batch of the same photos while
// the first still runs — Start pressed twice, the same command after Ctrl-C — pays nothing and writes no copies.

describe('claims: the same photos in two batches are paid once', () => {
  let rig: SandboxRig;
  afterEach(async () => { await rig?.close(); });

  const specFor = async (count: number, out = 'out') => {
    const input = join(rig.dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, count);
    return { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, out) } };
  };

  it('Start pressed twice: the second batch follows the first, 0 credits, one file per photo', async () => {
    rig = await startSandboxRig({ credits: 100, executionDurationMs: 400, engine: { balanceEvidence: false } });
    const spec = await specFor(6);
    const first = await rig.engine.createBatch(spec);
    // While the first runs, the same batch again: the estimate already says it is paid once.
    const estimate = await rig.engine.estimate(spec);
    expect(estimate.itemCount).toBe(6);
    expect(estimate.following).toHaveLength(6);
    expect(estimate.totalCost).toBe(0);
    const second = await rig.engine.createBatch(spec);

    const done1 = await waitForBatch(rig.engine, first.id);
    const done2 = await waitForBatch(rig.engine, second.id);
    console.log(JSON.stringify(rig.engine.listItems({ batchId: first.id }).items.map((i) => [i.state, i.reason])), JSON.stringify(rig.engine.listItems({ batchId: second.id }).items.map((i) => [i.state, i.reason])));
    expect(done1.counts.saved).toBe(6);
    expect(done2.counts.saved).toBe(6);
    expect(rig.sandbox.stats().executionsCreated).toBe(6);
    expect(done1.creditsSpent + done2.creditsSpent).toBe(6);
    // The second batch's results are the first batch's files: nothing written twice, no "(2)" copies.
    const files = await readdir(join(rig.dir.path, 'out'));
    expect(files).toHaveLength(6);
    expect(files.some((f) => f.includes('(2)'))).toBe(false);
    const items = rig.engine.listItems({ batchId: second.id }).items;
    expect(items.every((i) => i.creditsCharged === 0 && i.outputs.length === 1 && i.paidElsewhere === true)).toBe(true);
    // What the batch costs in all is true too: nothing.
    expect(done2.creditCost).toBe(0);
    expect(done1.creditCost).toBe(6);
    expect(await tempFilesIn(rig.dir.path)).toEqual([]);
  });

  it('a second batch into another folder takes the paid results into its own plan, without a new execution', async () => {
    rig = await startSandboxRig({ credits: 100, executionDurationMs: 300, engine: { balanceEvidence: false } });
    const spec = await specFor(4);
    const first = await rig.engine.createBatch(spec);
    const second = await rig.engine.createBatch({ ...spec, output: { outputFolder: join(rig.dir.path, 'other'), format: 'png' as const } });
    await waitForBatch(rig.engine, first.id);
    const done2 = await waitForBatch(rig.engine, second.id);
    expect(done2.counts.saved).toBe(4);
    expect(done2.creditsSpent).toBe(0);
    expect(rig.sandbox.stats().executionsCreated).toBe(4);
    const other = await readdir(join(rig.dir.path, 'other'));
    expect(other.filter((f) => f.endsWith('.png'))).toHaveLength(4);
  });

  it('a second batch that only runs after the first finished still takes its results (found by the crash soak)', async () => {
    rig = await startSandboxRig({ credits: 100, executionDurationMs: 200, engine: { balanceEvidence: false } });
    const spec = await specFor(4);
    const first = await rig.engine.createBatch(spec);
    const second = await rig.engine.createBatch(spec);
    rig.engine.pause(second.id);
    await waitForBatch(rig.engine, first.id);
    rig.engine.resume(second.id);
    const done2 = await waitForBatch(rig.engine, second.id);
    expect(done2.counts.saved).toBe(4);
    expect(done2.creditsSpent).toBe(0);
    // Before: the first batch's claims were "saved", no longer open, and the second batch paid for all 4 again.
    expect(rig.sandbox.stats().executionsCreated).toBe(4);
    expect(await readdir(join(rig.dir.path, 'out'))).toHaveLength(4);
  });

  it('a hot folder batch (which always says rerun: it checked its own ledger) follows a photo an app batch is sending', async () => {
    rig = await startSandboxRig({ credits: 100, executionDurationMs: 400, engine: { balanceEvidence: false } });
    const spec = await specFor(3);
    const app = await rig.engine.createBatch(spec);
    const hot = await rig.engine.createBatch({ ...spec, rerun: true, source: { kind: 'hotFolder' as const, hotFolderId: 'hf-1' } });
    await waitForBatch(rig.engine, app.id);
    const done = await waitForBatch(rig.engine, hot.id);
    expect(done.counts.saved).toBe(3);
    expect(done.creditsSpent).toBe(0);
    expect(rig.sandbox.stats().executionsCreated).toBe(3);
  });

  it('an interrupted batch and the same batch again after a restart: paid once in all', async () => {
    rig = await startSandboxRig({ credits: 100, executionDurationMs: 500, engine: { balanceEvidence: false } });
    const spec = await specFor(5);
    const first = await rig.engine.createBatch(spec);
    // Stopped as a Ctrl-C does once some are at the service (graceful: what was sent gets its answer journalled),
    // then the same batch from a new engine. kill -9 is the CLI test's and the crash soak's: here the journal stays
    // open across the restart, so a cut-off answer arriving afterwards would be written behind the new engine's back.
    const deadline = Date.now() + 10_000;
    while (rig.sandbox.stats().executionsCreated < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await rig.restart({ graceful: true });
    const estimate = await rig.engine.estimate(spec);
    expect(estimate.totalCost).toBeLessThanOrEqual(5 - 2);
    const second = await rig.engine.createBatch(spec);
    await waitForBatch(rig.engine, first.id);
    const done2 = await waitForBatch(rig.engine, second.id);
    expect(done2.counts.saved).toBe(5);
    expect(rig.sandbox.stats().executionsCreated).toBe(5);
    const files = await readdir(join(rig.dir.path, 'out'));
    expect(files).toHaveLength(5);
  });
});
