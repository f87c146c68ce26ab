import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Every start sweeps the `.batchroom-*` temps a kill (or a failed save that could not remove them) left in the output
// folders of the journal's batches — open ones and ones completed recently, each sub-folder they write, whatever
// state their items are in. Before, only the folders of unfinished items of unfinished batches were swept, so
// zero-byte `.part.finish` files beside a batch that later completed stayed for good.

describe('the start-up temp sweep', () => {
  const bed = useEngineTestBed();

  it('removes leftover temps beside a completed batch, in its sub-folders too, and nothing else', async () => {
    await mkdir(join(bed.input, 'sub'));
    await writePhotos(bed.input, 1);
    await writePhotos(join(bed.input, 'sub'), 1, { offset: 5 });
    const out = join(bed.dir.path, 'out');
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input], recursive: true }, output: { outputFolder: out } });
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    await bed.stopEngine();

    const leftovers = [
      join(out, '.batchroom-item1-0a1b2c3d.part.finish'), join(out, '.batchroom-item1-0a1b2c3d.part'),
      join(out, 'sub', '.batchroom-item2-11223344.part_exiftool_tmp'), join(out, 'sub', '.batchroom-5566aabb.xmp'),
      join(out, '.batchroom-probe-99887766.part'),
    ];
    for (const path of leftovers) await writeFile(path, '');
    await writeFile(join(out, '.batchroom-notes.txt'), 'not ours: kept');
    const before = new Set([...await readdir(out), ...await readdir(join(out, 'sub'))]);

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    const after = new Set([...await readdir(out), ...await readdir(join(out, 'sub'))]);
    expect([...before].filter((n) => !after.has(n)).sort()).toEqual(leftovers.map((p) => p.split('/').pop()!).sort());
    expect(after.has('.batchroom-notes.txt')).toBe(true);
    expect([...await readdir(out), ...await readdir(join(out, 'sub'))].filter((n) => n.endsWith('.jpg'))).toHaveLength(2);
  });
});

describe('the start-up temp sweep with several deliverables', () => {
  const bed = useEngineTestBed();

  it('sweeps every deliverable\'s folder (tokens filled in, capture-date folders from the files written)', async () => {
    await writePhotos(bed.input, 1);
    const out = join(bed.dir.path, 'out');
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    const batch = await engine.createBatch({
      workflowId: 'fake-edit', inputs: { paths: [bed.input] }, job: 'J1', output: { outputFolder: out, folder: 'full' },
      deliverables: [{ folder: 'web/{job}', format: 'png' }, { folder: 'by-date/{capture_date}', format: 'webp' }],
    });
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(1);
    await bed.stopEngine();
    const [, , dated] = engine.listItems({ batchId: batch.id }).items[0]!.outputs;
    const folders = [join(out, 'full'), join(out, 'web', 'J1'), join(dated!, '..')];
    for (const folder of folders) await writeFile(join(folder, '.batchroom-item1-0a1b2c3d.part'), '');

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    for (const folder of folders) expect((await readdir(folder)).filter((n) => n.startsWith('.batchroom-'))).toEqual([]);
  });
});
