import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine } from '../../../main/core/engine';
import { consumeOutcomes } from '../../../main/core/engine/outcome-consumer';
import { openJournal, type OutcomeRecord } from '../../../main/core/journal';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// The outcome outbox: each terminal outcome of each attempt once, in order, and consumers that resume from their
// journalled cursor.

describe('outcome outbox', () => {
  const bed = useEngineTestBed();

  const spec = () => ({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });

  it('records fail then retry-saved as two attempts of one item; the latest outcome per item counts every photo processed, none failed', async () => {
    await writePhotos(bed.input, 2);
    const client = createFakeClient({ onExecute: (n) => (n === 0 ? new AppError('validation', 'the service rejected the image') : null) });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    const seen: OutcomeRecord[] = [];
    const consumer = consumeOutcomes(bed.journal, 'test', (o) => { seen.push(o); });
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
    await writePhotos(bed.input, 3);
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    const first: number[] = [];
    const a = consumeOutcomes(bed.journal, 'resumer', (o) => { first.push(o.seq); if (first.length === 1) a.stop(); });
    await engine.start();
    const batch = await engine.createBatch(spec());
    await waitForBatch(engine, batch.id);
    expect(first).toHaveLength(1);
    await engine.stop({ graceful: true });
    bed.engine = undefined;
    bed.journal.close();
    bed.journal = openJournal(join(bed.dir.path, 'state'));
    const rest: number[] = [];
    const b = consumeOutcomes(bed.journal, 'resumer', (o) => { rest.push(o.seq); });
    await b.drained();
    b.stop();
    expect([...first, ...rest]).toEqual(bed.journal.outcomesAfter(0).map((o) => o.seq));
    expect(rest).toHaveLength(2);
    // A consumer never seen before starts at the end unless it asks for the whole outbox.
    const fresh: number[] = [];
    const c = consumeOutcomes(bed.journal, 'newcomer', (o) => { fresh.push(o.seq); });
    await c.drained();
    c.stop();
    expect(fresh).toEqual([]);
  });

  it('records an item settled at planning (a duplicate) once, with the batch', async () => {
    const [photo] = await writePhotos(bed.input, 1);
    const { copyFile } = await import('node:fs/promises');
    await copyFile(photo!, join(bed.input, 'copy.jpg'));
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch(spec());
    await waitForBatch(engine, batch.id);
    const outcomes = bed.journal.outcomesAfter(0).filter((o) => o.batchId === batch.id);
    expect(outcomes.map((o) => o.state).sort()).toEqual(['saved', 'skipped']);
  });
});
