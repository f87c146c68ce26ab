import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createLogger, type LogRecord } from '../../../main/core/log';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { until } from '../../helpers/until';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Review of ca4a158: the later start-up sweep removes `.batchroom-*` temps whose mtime is before the start, "so a
// running save's temp is never touched". But the metadata writer gives the TEMP the original's capture time
// (result-metadata.ts keepCaptureTime: utimes(temp, capturedAt)) before the temp is placed. A save running in this
// start, between its metadata and its placement while the later sweep visits its folder, loses its temp: link()
// fails ENOENT and the paid item ends `failed` ("retry failed").

const YEAR_AGO = new Date(Date.now() - 365 * 24 * 60 * 60 * 1000);

describe('the later start-up temp sweep and a save running in this start', () => {
  const bed = useEngineTestBed();
  let writer: ResultMetadataWriter;
  beforeEach(() => { writer = createResultMetadataWriter({ configDir: join(bed.dir.path, 'state'), creatorTool: 'test' }); });
  afterEach(async () => { await bed.stopEngine(); await writer.end(); });

  it('leaves the temp of a save whose metadata dated it to the capture time', async () => {
    // Photos shot a year ago (no EXIF: the capture time is the file's mtime), as most photos are.
    for (const path of await writePhotos(bed.input, 2)) await utimes(path, YEAR_AGO, YEAR_AGO);
    const out = join(bed.dir.path, 'out');
    const hold = { held: true };
    const client = createFakeClient({ hold });
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2, resultMetadata: writer }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => bed.journal.listItems({ batchId: batch.id }).items.every((i) => i.state === 'submitted' || i.state === 'running'), 'both paid');
    await bed.stopEngine(); // a restart with both photos paid for, not yet saved

    const records: LogRecord[] = [];
    const logger = createLogger({ sink: (r) => { records.push(r); }, minLevel: 'info' });
    const sweepDone = () => records.some((r) => r.message === 'temp sweep done');
    let metadataWritten = 0;
    // The real writer (a new one: the stop ended the first), then the save goes on once the later sweep has run.
    writer = createResultMetadataWriter({ configDir: join(bed.dir.path, 'state'), creatorTool: 'test' });
    const gated: ResultMetadataWriter = {
      ...writer,
      apply: async (path, request) => {
        const outcome = await writer.apply(path, request);
        metadataWritten++;
        // (Before ca4a158 the whole sweep ran before start() returned: nothing to wait for, 7 s then on.)
        await until(sweepDone, 'the later temp sweep', { timeoutMs: 7_000 }).catch(() => undefined);
        return outcome;
      },
    };
    hold.held = false;
    engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2, resultMetadata: gated, logger }));
    await engine.start();
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 30_000 });
    expect(metadataWritten).toBeGreaterThan(0);
    expect(client.executeCalls()).toBe(2);
    expect(bed.journal.listItems({ batchId: batch.id }).items.map((i) => [i.state, i.reason])).toEqual([['saved', null], ['saved', null]]);
    expect(done.counts.saved).toBe(2);
    expect((await readdir(out)).filter((n) => n.endsWith('.jpg'))).toHaveLength(2);
  }, 60_000);
});
