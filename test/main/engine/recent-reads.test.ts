import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { createRecentReads, RECENT_READS_MS } from '../../../main/core/engine/recent-reads';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { makeTempDir, writePhotos } from './helpers';

// Start right after an estimate reuses the workflow and balance the estimate read (one round trip less before the
// first photo is sent); later, or for another workflow, it reads them again.

describe('recent reads', () => {
  it('gives the estimate\'s reads to the next Start of the same workflow, once, while they are recent', () => {
    let clock = 1_000;
    const reads = createRecentReads(() => clock);
    reads.remember('a', FAKE_WORKFLOW, 50);
    expect(reads.take('a')).toEqual({ workflow: FAKE_WORKFLOW, balance: 50 });
    expect(reads.take('a')).toBeNull(); // once

    reads.remember('a', FAKE_WORKFLOW, 50);
    expect(reads.take('b')).toBeNull(); // another workflow
    expect(reads.take('a')).toBeNull(); // …and the miss used them up

    reads.remember('a', FAKE_WORKFLOW, 50);
    clock += RECENT_READS_MS + 1;
    expect(reads.take('a')).toBeNull(); // too old

    reads.remember('a', FAKE_WORKFLOW, 50);
    clock -= 5_000; // the clock stepped back: the age is unknown
    expect(reads.take('a')).toBeNull();

    reads.remember('a', FAKE_WORKFLOW, null); // an unread balance is read again at Start
    expect(reads.take('a')).toBeNull();

    reads.remember('a', FAKE_WORKFLOW, 50);
    reads.forget();
    expect(reads.take('a')).toBeNull();
  });
});

describe('engine: Start after an estimate', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine | undefined;
  let input: string;

  beforeEach(async () => {
    dir = await makeTempDir();
    journal = openJournal(join(dir.path, 'state'));
    input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 2);
  });

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    engine = undefined;
    journal.close();
    await dir.cleanup();
  });

  const spec = () => ({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } });

  async function startEngine(now: () => Date) {
    const client = createFakeClient({ hold: { held: true } });
    let workflowReads = 0;
    const getWorkflow = client.getWorkflow.bind(client);
    client.getWorkflow = async (id, opts) => {
      workflowReads++;
      return getWorkflow(id, opts);
    };
    engine = createEngine({ journal, client, concurrency: 1, now });
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
    await engine.createBatch({ ...spec(), output: { outputFolder: join(dir.path, 'out-1') } });
    await engine.createBatch({ ...spec(), output: { outputFolder: join(dir.path, 'out-2') } });
    // 2 so far; then the estimate reads (3), its Start reuses (3), a second Start reads again (4).
    expect(workflowReads()).toBe(4);
  });
});
