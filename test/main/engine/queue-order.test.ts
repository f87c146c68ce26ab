import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient, type ServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { until } from '../../helpers/until';
import { makeTempDir, waitForBatch, writePhotos, type TempDir } from './helpers';

// Queue order across batches (issue 32 #5) against the real sandbox: which batch each accepted execution belonged
// to, in the order the engine sent them.

/** A client that notes each accepted execution id in the order its request was sent. */
function recordingSubmits(real: ServiceClient, sent: string[]): ServiceClient {
  return Object.assign(Object.create(real) as ServiceClient, {
    execute: async (...args: Parameters<ServiceClient['execute']>) => {
      const slot = sent.push('') - 1;
      const outcome = await real.execute(...args);
      if (outcome.kind === 'accepted') sent[slot] = outcome.executionId;
      return outcome;
    },
  });
}

/** Runs of the same batch in submit order, e.g. [['b1', 1], ['b2', 3], ['b1', 5]]. */
function runsOf(journal: Journal, sent: readonly string[], names: Record<string, string>): [string, number][] {
  const batchOf = new Map(journal.listExecutions().map((e) => [e.id, names[e.batchId] ?? e.batchId]));
  const runs: [string, number][] = [];
  for (const id of sent) {
    const name = batchOf.get(id) ?? `unaccepted ${id}`;
    const last = runs.at(-1);
    if (last && last[0] === name) last[1] += 1; else runs.push([name, 1]);
  }
  return runs;
}

describe('queue order across batches', () => {
  let sandbox: RunningSandbox | undefined;
  let dir: TempDir | undefined;
  let journal: Journal | undefined;
  let engine: Engine | undefined;

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    journal?.close();
    await sandbox?.close();
    await dir?.cleanup();
    engine = journal = sandbox = dir = undefined;
  });

  const folderOf = async (name: string, count: number, offset: number): Promise<string> => {
    const path = join(dir!.path, name);
    await mkdir(path);
    await writePhotos(path, count, { offset, prefix: name });
    return path;
  };
  const spec = (input: string, extra: Record<string, unknown> = {}) => ({
    workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] },
    output: { outputFolder: join(dir!.path, 'out', input.split('/').at(-1)!) }, ...extra,
  });

  it('a batch moved to the front mid-run is submitted next; the execution already running is not interrupted', async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 250, credits: 1000 });
    journal = openJournal(join(dir.path, 'state'));
    const sent: string[] = [];
    const client = recordingSubmits(createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), sent);
    engine = createEngine({ journal, client, concurrency: 1 });
    await engine.start();
    const [first, second] = [await folderOf('first', 6, 0), await folderOf('second', 3, 100)];
    const b1 = await engine.createBatch(spec(first));
    await until(() => sent.length >= 1, 'the first batch submitting');
    const b2 = await engine.createBatch(spec(second));
    const moved = engine.moveBatch(b2.id, 'front');
    const sentBeforeMove = sent.length;
    expect(sentBeforeMove).toBeLessThan(6);
    expect(moved.queueOrder).toBeLessThan(engine.getBatch(b1.id).queueOrder!);
    await waitForBatch(engine, b2.id);
    await waitForBatch(engine, b1.id);
    // What was sent before the move ran on; then the moved batch, every photo; then the rest of the first.
    expect(runsOf(journal, sent, { [b1.id]: 'first', [b2.id]: 'second' })).toEqual([['first', sentBeforeMove], ['second', 3], ['first', 6 - sentBeforeMove]]);
    expect(engine.getBatch(b1.id).counts.saved).toBe(6);
    expect(engine.getBatch(b2.id).counts.saved).toBe(3);
    // Nothing was sent twice or given up: the photos encoded ahead for the first batch went back to pending.
    expect(sandbox.stats().executionsCreated).toBe(9);
  });

  it('the order (moves and priorities) is journalled: an engine on the reopened journal submits in it', async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 20, credits: 1000 });
    const state = join(dir.path, 'state');
    journal = openJournal(state);
    const sent: string[] = [];
    const client = recordingSubmits(createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), sent);
    // Not started: the batches wait, as they would in a journal a crash left behind.
    engine = createEngine({ journal, client, concurrency: 1 });
    const [older, newer, urgent] = [await folderOf('older', 2, 0), await folderOf('newer', 2, 100), await folderOf('urgent', 2, 200)];
    const b1 = await engine.createBatch(spec(older));
    const b2 = await engine.createBatch(spec(newer));
    expect(engine.moveBatch(b2.id, 'front').priority).toBe(0);
    const b3 = await engine.createBatch(spec(urgent, { priority: 5 }));
    expect(b3.priority).toBe(5);
    await engine.stop({ graceful: false });
    journal.close();

    journal = openJournal(state);
    engine = createEngine({ journal, client, concurrency: 1 });
    await engine.start();
    for (const id of [b1.id, b2.id, b3.id]) await waitForBatch(engine, id);
    expect(runsOf(journal, sent, { [b1.id]: 'older', [b2.id]: 'newer', [b3.id]: 'urgent' })).toEqual([['urgent', 2], ['newer', 2], ['older', 2]]);
    // Moving to the back goes after every open batch, whatever its priority: here none is open any more.
    expect(engine.moveBatch(b3.id, 'back').priority).toBe(5);
  });
});
