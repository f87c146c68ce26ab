import { mkdir, stat, utimes } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch } from '../engine/helpers';
import { writeFlirJpeg, writeTaggedJpeg } from './capture-kit';

// Issue 31 #5 through the engine: the names a batch previews and saves ({capture_date} {capture_time}) and the mtime
// its results get come from one capture read, so they agree — the camera's clock in the name, the instant (with the
// offset written in XMP, IPTC or FLIR's record) as the mtime. Run in a zone that is none of the photos'.

describe('capture naming and result mtimes through the engine, offsets written in the value (issue 31 #5)', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;
  let writer: ResultMetadataWriter;
  const savedZone = process.env.TZ;

  beforeAll(async () => {
    process.env.TZ = 'Pacific/Auckland';
    sandbox = await startTestSandbox({ executionDurationMs: 30 });
    dir = await makeTempDir('batchroom-capture-naming-offset-');
    journal = openJournal(join(dir.path, 'state'));
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
    engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), resultMetadata: writer });
    await engine.start();
  });
  afterAll(async () => {
    await engine.stop({ graceful: false });
    journal.close();
    await sandbox.close();
    await dir.cleanup();
    if (savedZone === undefined) delete process.env.TZ;
    else process.env.TZ = savedZone;
  });

  it('IPTC-only, XMP-only and FLIR originals: named by their capture, saved with its instant as mtime', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writeTaggedJpeg(writer.command, join(input, 'iptc.jpg'), { 'IPTC:DateCreated': '2024:05:01', 'IPTC:TimeCreated': '10:00:00-06:00' });
    await writeTaggedJpeg(writer.command, join(input, 'xmp.jpg'), { 'XMP-photoshop:DateCreated': '2024-05-02T09:30:00-06:00' });
    await writeFlirJpeg(writer.command, join(input, 'flir.jpg'), '2021:07:07 20:32:16', Date.UTC(2021, 6, 8, 0, 32, 16, 436), -240);
    // the files' own dates say something else: a name or mtime taken from them would show
    const fileDate = new Date(Date.UTC(2019, 11, 31, 12, 0, 0));
    for (const f of ['iptc.jpg', 'xmp.jpg', 'flir.jpg']) await utimes(join(input, f), fileDate, fileDate);

    const expected: Record<string, { name: string; instant: string }> = {
      'iptc.jpg': { name: '2024-05-01_100000_iptc.jpg', instant: '2024-05-01T16:00:00.000Z' },
      'xmp.jpg': { name: '2024-05-02_093000_xmp.jpg', instant: '2024-05-02T15:30:00.000Z' },
      'flir.jpg': { name: '2021-07-07_203216_flir.jpg', instant: '2021-07-08T00:32:16.000Z' },
    };
    const spec = {
      workflowId: 'auto-enhance', inputs: { paths: [input] },
      output: { outputFolder: join(dir.path, 'out'), namingTemplate: '{capture_date}_{capture_time}_{name}{ext}' },
    };
    const names = Object.values(expected).map((e) => e.name).sort();
    expect((await engine.estimate(spec)).namingPreview.map((p) => basename(p.output)).sort()).toEqual(names);
    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(3);
    const items = engine.listItems({ batchId: batch.id }).items;
    expect(items.flatMap((i) => i.outputs).map((p) => basename(p)).sort()).toEqual(names);
    for (const item of items) {
      const want = expected[basename(Object.values(item.sources)[0] ?? '')]!;
      const output = item.outputs[0]!;
      expect(basename(output)).toBe(want.name);
      expect(new Date((await stat(output)).mtimeMs).toISOString(), want.name).toBe(want.instant);
    }
  });
});
