import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import type { ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { until } from '../../helpers/until';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Review of ca4a158 (the first part is as before it): a start's first sweep removes EVERY `.batchroom-*` temp, of any
// age and any writer, in the output folder of each of its journal's open and recent batches. A second instance (a
// studio: two machines, one output share) or a second journal saving into the same folder loses the temp of the save
// it is running: its paid item ends `failed`.

describe('the start-up temp sweep and another journal saving into the same output folder', () => {
  const bed = useEngineTestBed();
  let other: { journal: Journal; engine?: Engine } | undefined;
  afterEach(async () => { await other?.engine?.stop({ graceful: false }); other?.journal.close(); other = undefined; });

  it('leaves a temp it did not make', async () => {
    const out = join(bed.dir.path, 'out');
    await mkdir(out);
    // Instance B: a batch into `out` that is not finished when B stops.
    const inB = join(bed.dir.path, 'in-b');
    await mkdir(inB);
    await writePhotos(inB, 1, { offset: 7 });
    other = { journal: openJournal(join(bed.dir.path, 'state-b')) };
    const holdB = { held: true };
    const clientB = createFakeClient({ hold: holdB });
    other.engine = createEngine({ journal: other.journal, client: clientB, concurrency: 1 });
    await other.engine.start();
    const batchB = await other.engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [inB] }, output: { outputFolder: out } });
    await until(() => other!.journal.listItems({ batchId: batchB.id }).items.every((i) => i.state === 'submitted' || i.state === 'running'), 'B paid');
    await other.engine.stop({ graceful: false });
    other.engine = undefined;

    // Instance A saves into `out`; its save waits, temp made, until B has restarted.
    await writePhotos(bed.input, 1);
    let reached = false;
    let bRestarted = false;
    const stub: ResultMetadataWriter = {
      apply: async () => { reached = true; await until(() => bRestarted, 'B restarted'); return { warnings: [] } as never; },
      capture: async () => null, command: async () => '', warmUp: () => undefined, end: async () => undefined,
    } as unknown as ResultMetadataWriter;
    const clientA = createFakeClient();
    const engineA = bed.setEngine(createEngine({ journal: bed.journal, client: clientA, concurrency: 1, resultMetadata: stub }));
    await engineA.start();
    const batchA = await engineA.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => reached, 'A between its temp and its final name');
    expect((await readdir(out)).filter((n) => n.startsWith('.batchroom-'))).toHaveLength(1);

    other.engine = createEngine({ journal: other.journal, client: clientB, concurrency: 1 });
    await other.engine.start();
    bRestarted = true;
    await waitForBatch(engineA, batchA.id, { timeoutMs: 20_000 });
    expect(bed.journal.listItems({ batchId: batchA.id }).items.map((i) => [i.state, i.reason])).toEqual([['saved', null]]);
  }, 60_000);
});
