import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { startOrder } from '../../../main/core/engine/start-order';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Issue 34 #3: after a restart, the first new submission goes before the work recovery found. A result of an
// execution that was in flight at the stop is downloaded and saved only once a submission made after the restart
// has been answered (or nothing is to be sent, or new submissions are held, or 5 s passed): its download and save
// (ExifTool's start among them) no longer share the event loop with the first new submit. Real journal throughout.

describe('start order: the first new submission before recovered downloads', () => {
  const bed = useEngineTestBed();

  /** A batch of 4 with one execution accepted and still running, the rest pending, and the engine stopped. */
  async function stoppedMidBatch() {
    await writePhotos(bed.input, 4);
    const hold = { held: true };
    const client = createFakeClient({ hold });
    // One execution at a time, and no second one accepted before the stop: the rest stay pending.
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    await vi.waitFor(() => expect(engine.listItems({ batchId: batch.id }).items.some((i) => i.state === 'submitted' || i.state === 'running')).toBe(true), { timeout: 10_000 });
    await bed.stopEngine();
    hold.held = false; // the execution completed while the engine was down
    return { client, batchId: batch.id };
  }

  it('downloads the recovered result only after the first new submission is answered', async () => {
    const { client, batchId } = await stoppedMidBatch();
    const events: string[] = [];
    const execute = client.execute.bind(client);
    const download = client.downloadResult.bind(client);
    let executes = 0;
    client.execute = async (workflow, request) => {
      const n = executes++;
      if (n === 0) await new Promise((r) => setTimeout(r, 600)); // the first new POST is slow to be answered
      const outcome = await execute(workflow, request);
      events.push(`answered ${n}`);
      return outcome;
    };
    client.downloadResult = async (...args: Parameters<typeof download>) => {
      events.push('download');
      return download(...args);
    };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    expect((await waitForBatch(engine, batchId)).counts.saved).toBe(4);
    // Before: the recovered result was polled (0–200 ms) and downloaded while the first new POST was unanswered.
    expect(events.indexOf('answered 0')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('download')).toBeGreaterThan(events.indexOf('answered 0'));
  });

  it('opens at once with nothing to send, on an answer, on a hold, or when the wait is over', async () => {
    const { batchId } = await stoppedMidBatch();
    let answered = 0;
    let holding = false;
    let now = 1_000;
    const kicks: number[] = [];
    const make = () => startOrder({ journal: bed.journal, answered: () => answered, holding: () => holding, kick: () => kicks.push(now), now: () => now, waitMs: 5_000 });

    const byAnswer = make();
    expect(byAnswer.open()).toBe(false); // three photos pending in a running batch
    answered = 1;
    expect(byAnswer.open()).toBe(true);
    answered = 0;
    expect(byAnswer.open()).toBe(true); // stays open
    byAnswer.stop();

    const byHold = make();
    expect(byHold.open()).toBe(false);
    holding = true;
    expect(byHold.open()).toBe(true);
    holding = false;
    byHold.stop();

    const byTime = make();
    now += 4_999;
    expect(byTime.open()).toBe(false);
    now += 1;
    expect(byTime.open()).toBe(true);
    byTime.stop();

    // It looks by itself every 50 ms and kicks the scheduler once when it opens.
    const looking = make();
    answered = 1;
    await vi.waitFor(() => expect(kicks).toHaveLength(1), { timeout: 2_000 });
    await new Promise((r) => setTimeout(r, 150));
    expect(kicks).toHaveLength(1);
    looking.stop();
    answered = 0;

    // Nothing to send: no running batch with a pending photo.
    bed.journal.updateBatch(batchId, { state: 'paused' });
    expect(make().open()).toBe(true);
  });
});
