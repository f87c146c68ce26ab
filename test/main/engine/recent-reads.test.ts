import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createRecentReads, RECENT_READS_MS } from '../../../main/core/engine/recent-reads';
import { forwardingClient } from '../../../main/core/app/connection';
import type { ServiceClient } from '../../../main/core/service/types';
import { until } from '../../helpers/until';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Start right after an estimate reuses the workflow and balance the estimate read (one round trip less before the
// first photo is sent); later, or for another workflow, it reads them again.

describe('recent reads', () => {
  it('gives the estimate\'s reads to the next Start of the same workflow, once, while they are recent', () => {
    let clock = 1_000;
    const account = {};
    const reads = createRecentReads(() => clock);
    const remember = (balance: number | null) =>
      reads.remember('a', { value: FAKE_WORKFLOW, at: clock, account }, { value: balance, at: clock, account });
    remember(50);
    expect(reads.take('a', account)).toEqual({ workflow: FAKE_WORKFLOW, balance: 50 });
    expect(reads.take('a', account)).toBeNull(); // once

    remember(50);
    expect(reads.take('b', account)).toBeNull(); // another workflow
    expect(reads.take('a', account)).toBeNull(); // …and the miss used them up

    remember(50);
    clock += RECENT_READS_MS + 1;
    expect(reads.take('a', account)).toBeNull(); // too old

    remember(50);
    clock -= 5_000; // the clock stepped back: the age is unknown
    expect(reads.take('a', account)).toBeNull();

    remember(null); // an unread balance is read again at Start
    expect(reads.take('a', account)).toBeNull();

    remember(50);
    reads.forget();
    expect(reads.take('a', account)).toBeNull();
  });

  it('counts the age from the older read, when it was asked for', () => {
    let clock = 100_000;
    const account = {};
    const reads = createRecentReads(() => clock);
    reads.remember('a', { value: FAKE_WORKFLOW, at: clock, account }, { value: 50, at: clock - RECENT_READS_MS, account });
    clock += 1;
    expect(reads.take('a', account)).toBeNull();
    reads.remember('a', { value: FAKE_WORKFLOW, at: clock - RECENT_READS_MS, account }, { value: 50, at: clock, account });
    clock += 1;
    expect(reads.take('a', account)).toBeNull();
  });

  it('holds only for the account the reads came from', () => {
    const clock = 1_000;
    const [a, b] = [{}, {}];
    const reads = createRecentReads(() => clock);
    reads.remember('a', { value: FAKE_WORKFLOW, at: clock, account: a }, { value: 50, at: clock, account: a });
    expect(reads.take('a', b)).toBeNull(); // the key changed after the estimate
    expect(reads.take('a', a)).toBeNull(); // …and the miss used them up
    reads.remember('a', { value: FAKE_WORKFLOW, at: clock, account: a }, { value: 50, at: clock, account: b });
    expect(reads.take('a', a)).toBeNull(); // the key changed while the estimate ran
    expect(reads.take('a', b)).toBeNull();
  });
});

describe('engine: Start after an estimate', () => {
  const bed = useEngineTestBed();
  beforeEach(async () => { await writePhotos(bed.input, 2); });

  const spec = () => ({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });

  async function startEngine(now: () => Date) {
    const client = createFakeClient({ hold: { held: true } });
    let workflowReads = 0;
    const getWorkflow = client.getWorkflow.bind(client);
    client.getWorkflow = async (id, opts) => {
      workflowReads++;
      return getWorkflow(id, opts);
    };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, now }));
    await engine.start();
    return { client, engine, workflowReads: () => workflowReads };
  }

  it('reuses the workflow and balance the estimate just read', async () => {
    const { client, engine, workflowReads } = await startEngine(() => new Date());
    const estimate = await engine.estimate(spec());
    expect(estimate.balance).toBe(1000);
    client.setBalance(0); // spent elsewhere in the meantime: Start does not look again
    const batch = await engine.createBatch(spec());
    expect(batch.total).toBe(2);
    expect(workflowReads()).toBe(1);
  });

  it('reads both again when the estimate is older than a few seconds, or when Start comes twice', async () => {
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const { client, engine, workflowReads } = await startEngine(() => new Date(clock));
    await engine.estimate(spec());
    clock += RECENT_READS_MS + 1;
    client.setBalance(0);
    await expect(engine.createBatch(spec())).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(workflowReads()).toBe(2);

    client.setBalance(1000);
    await engine.estimate(spec());
    await engine.createBatch({ ...spec(), output: { outputFolder: join(bed.dir.path, 'out-1') } });
    await engine.createBatch({ ...spec(), output: { outputFolder: join(bed.dir.path, 'out-2') } });
    // 2 so far; then the estimate reads (3), its Start reuses (3), a second Start reads again (4).
    expect(workflowReads()).toBe(4);
  });

  it('reads both again after a key or service change: the new account\'s balance and price', async () => {
    // As the app's core does on key:set / settings:update: one client for the engine, another service underneath.
    const a = createFakeClient({ hold: { held: true } });
    const b = createFakeClient({ hold: { held: true }, balance: 0 });
    let target: ServiceClient = a;
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client: forwardingClient(() => target), concurrency: 1 }));
    await engine.start();
    expect((await engine.estimate(spec())).balance).toBe(1000);
    target = b;
    await expect(engine.createBatch(spec())).rejects.toMatchObject({ code: 'insufficient_credits' });

    // The new account pays another price: the batch is recorded (and budgeted by CreditGuard) at that one.
    const c = createFakeClient({ hold: { held: true } });
    const getWorkflow = c.getWorkflow.bind(c);
    c.getWorkflow = async (id, opts) => ({ ...await getWorkflow(id, opts), creditCost: 3 });
    target = a;
    expect((await engine.estimate(spec())).totalCost).toBe(2);
    target = c;
    const batch = await engine.createBatch(spec());
    expect(bed.journal.getBatch(batch.id)!.creditCost).toBe(3);
  });

  it('counts the age of the balance from when it was asked for, not from when the estimate ended', async () => {
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const client = createFakeClient({ hold: { held: true } });
    const getWorkflow = client.getWorkflow.bind(client);
    // The balance is asked for first, then the workflow; planning a big folder takes a minute after that.
    client.getWorkflow = async (id, opts) => {
      clock += 60_000;
      return getWorkflow(id, opts);
    };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, now: () => new Date(clock) }));
    await engine.start();
    await engine.estimate(spec());
    client.setBalance(0);
    clock += 1_000; // Start 1 s after the estimate, 61 s after the balance was read
    await expect(engine.createBatch(spec())).rejects.toMatchObject({ code: 'insufficient_credits' });
  });

  it('takes off what this engine was charged since the estimate', async () => {
    const clock = Date.parse('2026-11-25T10:00:00Z'); // stands still: the reads stay recent however long this takes
    const hold = { held: true };
    const client = createFakeClient({ hold, balance: 4 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, now: () => new Date(clock) }));
    await engine.start();
    const running = await engine.createBatch(spec()); // 2 photos, 1 credit each, one at a time
    await until(() => bed.journal.listItems({ batchId: running.id }).items.some((i) => i.state === 'running'), 'the first photo running');
    const more = join(bed.dir.path, 'more');
    await mkdir(more);
    await writePhotos(more, 3, { offset: 10 });
    const other = { ...spec(), inputs: { paths: [more] }, output: { outputFolder: join(bed.dir.path, 'out-more') } };
    const estimate = await engine.estimate(other);
    expect(estimate).toMatchObject({ balance: 3, totalCost: 3, fitsBalance: true });
    hold.held = false;
    await waitForBatch(engine, running.id); // its second photo was charged: 2 credits left, not 3
    await expect(engine.createBatch(other)).rejects.toMatchObject({ code: 'insufficient_credits', detail: { available: 2 } });
  });

  it('takes off what submissions in flight have committed: sent, not answered, not yet charged', async () => {
    const clock = Date.parse('2026-11-25T10:00:00Z');
    const client = createFakeClient({ balance: 4 });
    const execute = client.execute.bind(client);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => { answer = resolve; });
    let sent = 0;
    // The service has them and has not charged them yet: the balance it reports is still 4.
    client.execute = async (workflow, request) => { sent++; await answered; return execute(workflow, request); };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2, balanceEvidence: false, now: () => new Date(clock) }));
    await engine.start();
    const running = await engine.createBatch(spec()); // 2 photos, 1 credit each, both sent at once
    await until(() => sent === 2, 'both photos sent');
    const more = join(bed.dir.path, 'more');
    await mkdir(more);
    await writePhotos(more, 3, { offset: 10 });
    const other = { ...spec(), inputs: { paths: [more] }, output: { outputFolder: join(bed.dir.path, 'out-more') } };
    const estimate = await engine.estimate(other);
    expect(estimate).toMatchObject({ balance: 4, totalCost: 3, fitsBalance: true });
    // 2 of the 4 are committed to the answers still to come: 2 left for this batch, which needs 3.
    await expect(engine.createBatch(other)).rejects.toMatchObject({ code: 'insufficient_credits', detail: { available: 2 } });
    answer();
    await waitForBatch(engine, running.id);
  });
});
