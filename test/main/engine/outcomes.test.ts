import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine, type Engine } from '../../../main/core/engine';
import { consumeOutcomes } from '../../../main/core/engine/outcome-consumer';
import { openJournal, type Journal, type OutcomeRecord } from '../../../main/core/journal';
import { createFakeClient } from './fake-client';
import { makeTempDir, waitForBatch, writePhotos } from './helpers';

// The outcome outbox: each terminal outcome of each attempt once, in order, and consumers that resume from their
// journalled cursor.

describe('outcome outbox', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine | undefined;
  let input: string;

  beforeEach(async () => {
    dir = await makeTempDir();
    journal = openJournal(join(dir.path, 'state'));
    input = join(dir.path, 'in');
    await mkdir(input);
  });

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    engine = undefined;
    journal.close();
    await dir.cleanup();
  });

  const spec = () => ({ workflowId: 'fake-edit', inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } });

  it('records fail then retry-saved as two attempts of one item; the latest outcome per item counts every photo processed, none failed', async () => {
    await writePhotos(input, 2);
    const client = createFakeClient({ onExecute: (n) => (n === 0 ? new AppError('validation', 'the service rejected the image') : null) });
    engine = createEngine({ journal, client, concurrency: 1 });
    const seen: OutcomeRecord[] = [];
    const consumer = consumeOutcomes(journal, 'test', (o) => { seen.push(o); });
    await engine.start();
    const batch = await engine.createBatch(spec());
    await waitForBatch(engine, batch.id);
    engine.retryFailed(batch.id);
    await waitForBatch(engine, batch.id);
    await consumer.drained();
    consumer.stop();
    const retried = seen.find((o) => o.state === 'failed')!;
    expect(seen.filter((o) => o.itemId === retried.itemId).map((o) => [o.attempt, o.state])).toEqual([[1, 'failed'], [2, 'saved']]);
    expect(seen.map((o) => o.seq)).toEqual([...seen.map((o) => o.seq)].sort((a, b) => a - b));
    expect(new Set(seen.map((o) => `${o.itemId}#${o.attempt}`)).size).toBe(seen.length);
    const latest = new Map(seen.map((o) => [o.itemId, o.state]));
    const counts = { processed: [...latest.values()].filter((s) => s === 'saved').length, failed: [...latest.values()].filter((s) => s === 'failed').length };
    expect(counts).toEqual({ processed: 2, failed: 0 });
    expect(client.executeCalls()).toBe(3);
  });

  it('a consumer that restarts continues from its last sequence (also across a journal reopen)', async () => {
    await writePhotos(input, 3);
    const client = createFakeClient();
    engine = createEngine({ journal, client, concurrency: 1 });
    const first: number[] = [];
    const a = consumeOutcomes(journal, 'resumer', (o) => { first.push(o.seq); if (first.length === 1) a.stop(); });
    await engine.start();
    const batch = await engine.createBatch(spec());
    await waitForBatch(engine, batch.id);
    expect(first).toHaveLength(1);
    await engine.stop({ graceful: true });
    engine = undefined;
    journal.close();
    journal = openJournal(join(dir.path, 'state'));
    const rest: number[] = [];
    const b = consumeOutcomes(journal, 'resumer', (o) => { rest.push(o.seq); });
    await b.drained();
    b.stop();
    expect([...first, ...rest]).toEqual(journal.outcomesAfter(0).map((o) => o.seq));
    expect(rest).toHaveLength(2);
    // A consumer never seen before starts at the end unless it asks for the whole outbox.
    const fresh: number[] = [];
    const c = consumeOutcomes(journal, 'newcomer', (o) => { fresh.push(o.seq); });
    await c.drained();
    c.stop();
    expect(fresh).toEqual([]);
  });

  it('records an item settled at planning (a duplicate) once, with the batch', async () => {
    const [photo] = await writePhotos(input, 1);
    const { copyFile } = await import('node:fs/promises');
    await copyFile(photo!, join(input, 'copy.jpg'));
    const client = createFakeClient();
    engine = createEngine({ journal, client, concurrency: 1 });
    await engine.start();
    const batch = await engine.createBatch(spec());
    await waitForBatch(engine, batch.id);
    const outcomes = journal.outcomesAfter(0).filter((o) => o.batchId === batch.id);
    expect(outcomes.map((o) => o.state).sort()).toEqual(['saved', 'skipped']);
  });
});
