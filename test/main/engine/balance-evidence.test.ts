import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeLost, parseEvidenceState } from '../../../main/core/engine/balance-evidence';
import type { ServiceClient } from '../../../main/core/service';
import { createEngineSlot } from '../../../main/core/app/engine-slot';
import { createEventBus } from '../../../main/core/app/event-bus';
import { silentLogger } from '../../../main/core/log';
import { createServiceClient } from '../../../main/core/service';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Lost submissions (the answer never came: a kill mid-submit, a connection cut after the upload) judged by the
// balance: none charged → sent once more; all charged → charged-no-result for the provider report; some → the
// evidence is shown. Against the real sandbox, which charges on accept and refunds failures.

describe('judgeLost', () => {
  const anchor = { balance: 100, charged: 20 };
  it.each([
    ['none charged', 95, 25, [1, 1, 1], { kind: 'none-charged' }],
    ['all charged', 92, 25, [1, 1, 1], { kind: 'all-charged', credits: 3 }],
    ['one of three', 94, 25, [1, 1, 1], { kind: 'some-charged', count: 1, credits: 1 }],
    ['a top-up', 300, 25, [1, 1, 1], { kind: 'unexplained', credits: -205 }],
    ['more than they could cost', 80, 25, [1, 1, 1], { kind: 'unexplained', credits: 15 }],
    ['not a whole number of items', 93.5, 25, [1, 1, 1], { kind: 'unexplained', credits: 1.5 }],
    ['mixed costs, partly', 93, 25, [1, 2, 4], { kind: 'some-charged', count: null, credits: 2 }],
    ['mixed costs, all', 88, 25, [1, 2, 4], { kind: 'all-charged', credits: 7 }],
    ['fractional credits', 94.8, 25, [0.1, 0.1, 0.1], { kind: 'some-charged', count: 2, credits: 0.2 }],
  ] as const)('%s', (_name, balance, charged, costs, expected) => {
    const judgement = judgeLost({ anchor, balance, charged, costs });
    if ('credits' in expected) expect((judgement as { credits: number }).credits).toBeCloseTo(expected.credits, 6);
    expect({ ...judgement, credits: undefined }).toEqual({ ...expected, credits: undefined });
  });

  it('reads a stored state tolerantly: garbage gives a fresh one, never an error', () => {
    expect(parseEvidenceState(null).anchor).toBeNull();
    expect(parseEvidenceState('{not json').lost).toEqual([]);
    expect(parseEvidenceState('{"anchor":5}').anchor).toBeNull();
  });
});

type Loss = 'before' | 'after' | 'hang';

/**
 * A client that loses the answers of chosen submissions: before the request leaves, after the service took it, or
 * never answers. `together`: the planned ones answer only once all of them have been sent (one judgement for all).
 */
function losing(plan: Loss[], together = false): (real: ServiceClient) => ServiceClient {
  let n = 0;
  let arrive: () => void = () => {};
  const allSent = new Promise<void>((resolve) => { let count = 0; arrive = () => { if (++count === plan.length) resolve(); }; });
  return (real) => Object.assign(Object.create(real) as ServiceClient, {
    execute: async (...args: Parameters<ServiceClient['execute']>) => {
      const loss = plan[n++];
      if (loss === 'hang') return new Promise<never>(() => {});
      const outcome = loss === 'before' ? null : await real.execute(...args);
      if (loss && together) { arrive(); await allSent; }
      return loss ? ({ kind: 'unknown', reason: 'connection reset' } as const) : outcome!;
    },
  });
}

describe('balance evidence on lost submissions', () => {
  let rig: SandboxRig | null = null;
  afterEach(async () => { await rig?.close(); rig = null; });

  async function run(plan: Loss[], photos: number, options: { balanceEvidence?: false; concurrency?: number } = {}) {
    rig = await startSandboxRig({
      concurrency: options.concurrency ?? 1, credits: 100, client: losing(plan, (options.concurrency ?? 1) > 1),
      engine: { balanceEvidence: options.balanceEvidence ?? { settleMs: 40 } },
    });
    const input = join(rig.dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, photos);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') } };
    const batch = await rig.engine.createBatch(spec);
    return { batch, spec, done: await waitForBatch(rig.engine, batch.id, { timeoutMs: 20_000 }) };
  }

  const balance = async () => (await rig!.client.getBalance()).apiCredits;

  it('sends lost submissions the balance proves uncharged once more: every photo saved, each paid once', async () => {
    const { done } = await run(['before', 'before'], 5);
    expect(done.counts).toMatchObject({ saved: 5 });
    expect(done.counts.unknown ?? 0).toBe(0);
    expect(rig!.sandbox.stats().executionsCreated).toBe(5);
    expect(await balance()).toBe(95);
    expect(done.creditsSpent).toBe(5);
  });

  it('marks lost submissions the balance proves charged as charged-no-result, in the provider report, and never sends them again', async () => {
    const { batch, done, spec } = await run(['after', 'after'], 4);
    expect(done.counts).toMatchObject({ saved: 2, 'charged-no-result': 2 });
    expect(rig!.sandbox.stats().executionsCreated).toBe(4);
    expect(done.creditsSpent).toBe(4);
    expect(await balance()).toBe(96);
    const report = rig!.engine.providerReport(batch.id);
    expect(report.rows).toHaveLength(2);
    expect(report.rows[0]!.reason).toMatch(/balance shows it was charged \(all 2 lost submissions: 2 credits\)/);
    // A later batch of the same photos holds them back as charged (not "may have been"), and does not pay again.
    await expect.poll(async () => (await rig!.engine.estimate(spec)).skipped.filter((k) => /charged .*lost the result/.test(k.reason)).length).toBe(2);
  });

  it('shows the evidence when only some were charged, and decides nothing', async () => {
    const { batch, done } = await run(['before', 'after', 'before'], 3, { concurrency: 3 });
    expect(done.counts).toMatchObject({ unknown: 3 });
    const unknown = rig!.engine.listItems({ batchId: batch.id, states: ['unknown'] }).items;
    expect(unknown.map((i) => i.reason)).toEqual(Array(3).fill(expect.stringMatching(/balance shows 1 of these 3 lost submissions \(1 credit\) were charged/)));
    expect(rig!.sandbox.stats().executionsCreated).toBe(1);
  });

  it('decides nothing when the balance moved by what the lost ones cannot explain (a top-up meanwhile)', async () => {
    let calls = 0;
    const topUpThenLose = (real: ServiceClient): ServiceClient => Object.assign(Object.create(real) as ServiceClient, {
      execute: async (...args: Parameters<ServiceClient['execute']>) => {
        if (calls++ > 0) return real.execute(...args);
        await fetch(`${new URL(rig!.sandbox.url).origin}/sandbox/credits`, {
          method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${rig!.sandbox.apiKey}` }, body: JSON.stringify({ credits: 500 }),
        });
        return { kind: 'unknown', reason: 'connection reset' } as const;
      },
    });
    rig = await startSandboxRig({ concurrency: 1, credits: 100, client: topUpThenLose, engine: { balanceEvidence: { settleMs: 40 } } });
    const input = join(rig.dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 2);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') } };
    const batch = await rig.engine.createBatch(spec);
    const done = await waitForBatch(rig.engine, batch.id, { timeoutMs: 20_000 });
    expect(done.counts).toMatchObject({ saved: 1, unknown: 1 });
    expect(rig.sandbox.stats().executionsCreated).toBe(1);
    const [lost] = rig.engine.listItems({ batchId: batch.id, states: ['unknown'] }).items;
    expect(lost!.reason).toMatch(/balance moved by -40\d credits, which 1 lost submission cannot explain \(a top-up/);
  });

  it('holds new submissions after a restart until the lost ones are judged, and resends them', async () => {
    rig = await startSandboxRig({ concurrency: 2, credits: 100, client: losing(['hang', 'hang']), engine: { balanceEvidence: { settleMs: 40 } } });
    const input = join(rig.dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 6);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') } };
    const batch = await rig.engine.createBatch(spec);
    // Both slots hang mid-submit, as a process killed there: nothing reached the service.
    await expect.poll(() => rig!.engine.getBatch(batch.id).counts.submitting ?? 0, { timeout: 5000 }).toBe(2);
    const lostIds = rig.engine.listItems({ batchId: batch.id, states: ['submitting'] }).items.map((i) => i.id);
    // What the lost two were when the first submission after the restart left: already judged (pending again, and
    // maybe already picked up again), never still 'unknown' (the restart's answer-lost state until the balance judged).
    let seenAtFirstSubmit: string[] | null = null;
    const real = rig.client;
    const spy = Object.assign(Object.create(real) as ServiceClient, {
      execute: async (...args: Parameters<ServiceClient['execute']>) => {
        seenAtFirstSubmit ??= lostIds.map((id) => rig!.journal.getItem(id)!.state);
        return real.execute(...args);
      },
      // Slow balance reads: without the hold, the first submission would leave while the lost two are still unknown.
      getBalance: async (...args: Parameters<ServiceClient['getBalance']>) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return real.getBalance(...args);
      },
    });
    const engine = await rig.restart({ graceful: false, client: spy });
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 20_000 });
    expect(done.counts).toMatchObject({ saved: 6 });
    expect(seenAtFirstSubmit).toHaveLength(2);
    for (const state of seenAtFirstSubmit!) expect(['pending', 'encoding', 'submitting']).toContain(state);
    expect(rig.sandbox.stats().executionsCreated).toBe(6);
    expect(done.creditsSpent).toBe(6);
  });

  it('never decides with evidence turned off (studio mode): lost ones stay unknown', async () => {
    const { done } = await run(['before'], 2, { balanceEvidence: false });
    expect(done.counts).toMatchObject({ saved: 1, unknown: 1 });
    expect(rig!.sandbox.stats().executionsCreated).toBe(1);
  });
});

describe('balance evidence in the app core', () => {
  it.each([[false, true], [true, false]])('studio %s: the balance read before a batch anchors the evidence: %s', async (studio, anchored) => {
    const dir = await makeTempDir();
    await mkdir(join(dir.path, 'state'));
    const sandbox = await startTestSandbox({ credits: 50 });
    const slot = createEngineSlot({
      mode: 'eager', stateDir: join(dir.path, 'state'), client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }),
      concurrency: () => 2, bus: createEventBus(), logger: silentLogger, studio,
    });
    try {
      const { engine, journal } = await slot.ensure();
      const input = join(dir.path, 'in');
      await mkdir(input);
      await writePhotos(input, 1);
      await engine.estimate({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } });
      expect(parseEvidenceState(journal.balanceEvidence()).anchor?.balance ?? null).toBe(anchored ? 50 : null);
    } finally {
      await slot.stop(false, 2_000);
      await sandbox.close();
      await dir.cleanup();
    }
  });
});
