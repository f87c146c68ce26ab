import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { openJournal } from '../../../main/core/journal';
import { AppError } from '../../../shared/errors';
import { createFakeClient } from './fake-client';
import { until } from '../../helpers/until';
import { captureGates, useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// A non-graceful stop while requests wait at the gate (a shared back-off after a retryable failure, the offline
// latch): once stop() has returned nothing is sent — no paid submission, no download — and nothing writes to the
// journal the host is about to close. A submission still waiting puts its item back (pending), sent once by the
// next start.


const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a non-graceful stop with requests waiting at the gate', () => {
  const bed = useEngineTestBed();
  afterEach(() => { vi.restoreAllMocks(); });

  it('sends no submission waiting out a back-off, and puts its item back for the next start', async () => {
    const gates = captureGates();
    const client = createFakeClient();
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    await until(() => gates.length > 0, 'the gate used');
    gates[0]!.backOff(3_000);
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => bed.journal.listItems({ batchId: batch.id }).items[0]!.state === 'submitting', 'the item waiting for its turn');
    await bed.stopEngine();
    // Put back while the journal is open: nothing was sent, so it is not `unknown` at the next start.
    expect(bed.journal.listItems({ batchId: batch.id }).items[0]!.state).toBe('pending');
    await pause(3_500);
    expect(client.executeCalls()).toBe(0);

    const again = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await again.start();
    const done = await waitForBatch(again, batch.id, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(client.executeCalls()).toBe(1);
  });

  it('sends no submission held by the offline latch', async () => {
    const gates = captureGates();
    const fake = createFakeClient();
    let reachable = true;
    const client = {
      ...fake,
      getBalance: async () => {
        if (!reachable) throw new AppError('network', 'unreachable');
        return fake.getBalance();
      },
    };
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    await until(() => gates.length > 0, 'the gate used');
    reachable = false;
    for (let i = 0; i < 3; i++) gates[0]!.networkFailed();
    expect(gates[0]!.offline).toBe(true);
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => bed.journal.listItems({ batchId: batch.id }).items[0]!.state === 'submitting', 'the item waiting for the service');
    await bed.stopEngine();
    expect(bed.journal.listItems({ batchId: batch.id }).items[0]!.state).toBe('pending');
    await pause(300);
    expect(fake.executeCalls()).toBe(0);
  });

  it('cuts a download waiting out a back-off at once, and it writes nothing afterwards', async () => {
    const gates = captureGates();
    const fake = createFakeClient({ durationMs: 0 });
    let downloads = 0;
    const client = {
      ...fake,
      // The service asks everyone to wait just as the result is ready: its download waits at the gate.
      getExecution: async (id: string) => {
        const poll = await fake.getExecution(id);
        if (poll.status === 'completed') gates[0]!.backOff(3_000);
        return poll;
      },
      downloadResult: async (url: string, options?: { signal?: AbortSignal }) => {
        downloads++;
        return fake.downloadResult(url, options);
      },
    };
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    const item = () => bed.journal.listItems({ batchId: batch.id }).items[0]!;
    await until(() => item().state === 'downloading' && item().pendingTemp !== null, 'the download waiting for its turn');
    const startedAt = Date.now();
    await bed.stopEngine();
    expect(Date.now() - startedAt).toBeLessThan(1_000); // was the whole 2 s abandon wait, then a write after it
    const after = item();
    expect(after).toMatchObject({ state: 'downloading', pendingTemp: null, pendingFinal: null, outputs: [] });
    await pause(3_200);
    expect(downloads).toBe(0);
    expect(item()).toEqual(after);
  });

  it('puts back a submission whose studio claim outlasts the stop\'s bounded wait: pending, not unknown, nothing sent', async () => {
    const client = createFakeClient();
    await writePhotos(bed.input, 1);
    let calls = 0;
    let claimEnded = false;
    // A ledger query slower than the non-graceful stop waits (a Postgres connect up to 5 s, a query up to 20 s).
    const submitHooks = { beforeSubmit: async () => { calls++; await pause(3_000); claimEnded = true; }, accepted: async () => undefined };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false, submitHooks }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    await until(() => calls > 0, 'the claim under way');
    await bed.stopEngine();
    const stateAtStop = bed.journal.listItems({ batchId: batch.id }).items[0]!.state;
    bed.journal.close(); // the host closes the journal the moment stop() returns
    await until(() => claimEnded, 'the claim answered after the stop');
    await pause(200);
    bed.journal = openJournal(join(bed.dir.path, 'state'));
    await bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false })).recover();
    expect({ stateAtStop, after: bed.journal.listItems({ batchId: batch.id }).items[0]!.state, executes: client.executeCalls() })
      .toEqual({ stateAtStop: 'pending', after: 'pending', executes: 0 });
  }, 20_000);
});
