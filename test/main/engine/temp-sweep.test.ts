import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createLogger, type LogRecord } from '../../../main/core/log';
import type { Journal } from '../../../main/core/journal';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Every start sweeps the `.batchroom-*` temps a kill (or a failed save that could not remove them) left in the output
// folders of the journal's batches — open ones and ones completed recently, each sub-folder they write, whatever
// state their items are in. Before, only the folders of unfinished items of unfinished batches were swept, so
// zero-byte `.part.finish` files beside a batch that later completed stayed for good. Since issue 34 #3 the folders of
// the items being saved are swept before start() returns, every other folder once the first submit has left (or at
// once when nothing runs), and that later part removes only temps older than the start: the leftovers below are
// dated an hour back, as an earlier run's are.

const HOUR_AGO = new Date(Date.now() - 60 * 60 * 1000);
const temps = (names: string[]) => names.filter((n) => n.startsWith('.batchroom-') && !n.endsWith('.txt'));

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
    for (const path of leftovers) { await writeFile(path, ''); await utimes(path, HOUR_AGO, HOUR_AGO); }
    await writeFile(join(out, '.batchroom-notes.txt'), 'not ours: kept');
    const before = new Set([...await readdir(out), ...await readdir(join(out, 'sub'))]);

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    await vi.waitFor(async () => expect(temps([...await readdir(out), ...await readdir(join(out, 'sub'))])).toEqual([]), { timeout: 10_000 });
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
    for (const folder of folders) {
      await writeFile(join(folder, '.batchroom-item1-0a1b2c3d.part'), '');
      await utimes(join(folder, '.batchroom-item1-0a1b2c3d.part'), HOUR_AGO, HOUR_AGO);
    }

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    for (const folder of folders) await vi.waitFor(async () => expect(temps(await readdir(folder))).toEqual([]), { timeout: 10_000 });
  });
});

describe('the start-up temp sweep at scale', () => {
  const bed = useEngineTestBed();

  it('reads no page of a batch before start() returns, and later leaves a temp newer than the start', async () => {
    await mkdir(join(bed.input, 'sub'));
    await writePhotos(join(bed.input, 'sub'), 2);
    const out = join(bed.dir.path, 'out');
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input], recursive: true }, output: { outputFolder: out } });
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    await bed.stopEngine();

    const old = join(out, 'sub', '.batchroom-item1-0a1b2c3d.part');
    // A temp this run is writing, as far as the sweep can tell: changed after the start.
    const live = join(out, 'sub', '.batchroom-item2-99887766.part');
    await writeFile(old, '');
    await utimes(old, HOUR_AGO, HOUR_AGO);
    await writeFile(live, 'in progress');
    const ahead = new Date(Date.now() + 60_000);
    await utimes(live, ahead, ahead);

    // Every page of items read, counted: the start must read none (the sweep before it used to read them all).
    let pagesRead = 0;
    const counting = new Proxy(bed.journal, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if ((key === 'itemsPage' || key === 'listItems') && typeof value === 'function') {
          return (...args: unknown[]) => { pagesRead++; return (value as (...a: unknown[]) => unknown).apply(target, args); };
        }
        return value;
      },
    }) as Journal;
    const records: LogRecord[] = [];
    const logger = createLogger({ sink: (r) => { records.push(r); }, minLevel: 'info' });
    engine = bed.setEngine(createEngine({ journal: counting, client: createFakeClient(), concurrency: 2, logger }));
    await engine.start();
    expect(pagesRead).toBe(0);
    await vi.waitFor(() => expect(records.some((r) => r.message === 'temp sweep done')).toBe(true), { timeout: 10_000 });
    expect(pagesRead).toBeGreaterThan(0);
    const left = await readdir(join(out, 'sub'));
    expect(left).not.toContain('.batchroom-item1-0a1b2c3d.part');
    expect(left).toContain('.batchroom-item2-99887766.part');
  });
});
