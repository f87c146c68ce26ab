import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { ServiceClient } from '../../../main/core/service';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// An execution the service accepted (and charged) and then no longer knows: "charged, no result". It is kept out of
// "Retry failed" (which would pay again without a word), reported to the provider, and sent again only explicitly.

describe('charged, no result', () => {
  let rig: SandboxRig;
  const forgotten = new Set<string>();

  beforeEach(async () => {
    let accepted = 0;
    // The service forgets the first two executions it accepts, as a real one may after an incident.
    rig = await startSandboxRig({
      concurrency: 1,
      client: (real) => Object.assign(Object.create(real) as ServiceClient, {
        execute: async (...args: Parameters<ServiceClient['execute']>) => {
          const outcome = await real.execute(...args);
          if (outcome.kind === 'accepted' && accepted++ < 2) forgotten.add(outcome.executionId);
          return outcome;
        },
        getExecution: async (id: string, ...rest: unknown[]) => {
          if (forgotten.has(id)) throw new AppError('not_found', `no execution with id "${id}"`);
          return (real.getExecution as (...a: unknown[]) => ReturnType<ServiceClient['getExecution']>)(id, ...rest);
        },
      }),
    });
  });

  afterEach(async () => {
    await rig.close();
    forgotten.clear();
  });

  it('is its own state: not retried by "Retry failed", listed for the provider, held back from a new batch, sent again only on request', async () => {
    const { engine, sandbox, dir } = rig;
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 3);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
    const batch = await engine.createBatch(spec);
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 8000 });
    expect(done.counts).toMatchObject({ saved: 1, 'charged-no-result': 2 });
    expect(done.creditsSpent).toBe(3);
    expect(sandbox.stats().executionsCreated).toBe(3);

    // "Retry failed" has nothing to do: no new execution, nothing charged.
    engine.retryFailed(batch.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(sandbox.stats().executionsCreated).toBe(3);
    expect(engine.getBatch(batch.id).counts['charged-no-result']).toBe(2);

    const report = engine.providerReport(batch.id);
    expect(report.rows.map((r) => r.executionId).sort()).toEqual([...forgotten].sort());
    expect(report.rows.every((r) => r.credits === 1 && r.workflowId === 'color-grade')).toBe(true);
    const lines = report.csv.trim().split('\r\n');
    expect(lines[0]).toBe('execution_id,submitted_at,credits,workflow_id,batch_id,photo,reason');
    expect(lines).toHaveLength(3);
    expect(report.fileName).toMatch(/^batchroom-provider-report-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(engine.providerReport(null).rows).toHaveLength(2);

    // The same photos again: the lost ones are held back with the reason, not paid for silently.
    const again = await engine.estimate(spec);
    expect(again.itemCount).toBe(0);
    expect(again.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/charged .*lost the result/), expect.stringMatching(/charged .*lost the result/)]);

    // Explicitly: it runs and is paid again.
    const lost = engine.listItems({ batchId: batch.id, states: ['charged-no-result'] }).items[0]!;
    engine.resubmitItem(lost.id);
    const after = await waitForBatch(engine, batch.id);
    expect(after.counts).toMatchObject({ saved: 2, 'charged-no-result': 1 });
    expect(sandbox.stats().executionsCreated).toBe(4);
  });
});
