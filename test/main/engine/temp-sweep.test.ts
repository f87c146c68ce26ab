import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
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
// once when nothing runs). Either part removes a temp named after an item of this journal that is not being saved
// (whatever its dates), and a randomly named temp (XMP, JSON, probe) only when its mtime and ctime are both from before
// the start; the engine's clock is set a minute ahead below where a test needs its files to be "before the start"
// (a file's ctime cannot be set back).

const HOUR_AGO = new Date(Date.now() - 60 * 60 * 1000);
const MINUTE_AHEAD = () => new Date(Date.now() + 60_000);
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

    const [id1, id2] = engine.listItems({ batchId: batch.id }).items.map((i) => i.id);
    const leftovers = [
      join(out, `.batchroom-${id1}-0a1b2c3d.part.finish`), join(out, `.batchroom-${id1}-0a1b2c3d.part`),
      join(out, 'sub', `.batchroom-${id2}-11223344.part_exiftool_tmp`), join(out, 'sub', '.batchroom-5566aabb.xmp'),
      join(out, '.batchroom-probe-99887766.part'),
    ];
    for (const path of leftovers) { await writeFile(path, ''); await utimes(path, HOUR_AGO, HOUR_AGO); }
    await writeFile(join(out, '.batchroom-notes.txt'), 'not ours: kept');
    // Another journal's save into the same folder (an item id this journal does not know), however old it looks.
    const foreign = `.batchroom-${randomUUID()}-0a0b0c0d.part`;
    await writeFile(join(out, foreign), 'another instance is writing this');
    await utimes(join(out, foreign), HOUR_AGO, HOUR_AGO);
    const before = new Set([...await readdir(out), ...await readdir(join(out, 'sub'))]);

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2, now: MINUTE_AHEAD }));
    await engine.start();
    await vi.waitFor(async () => expect(temps([...await readdir(out), ...await readdir(join(out, 'sub'))])).toEqual([foreign]), { timeout: 10_000 });
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
    const leftover = `.batchroom-${engine.listItems({ batchId: batch.id }).items[0]!.id}-0a1b2c3d.part`;
    for (const folder of folders) {
      await writeFile(join(folder, leftover), '');
      await utimes(join(folder, leftover), HOUR_AGO, HOUR_AGO);
    }

    engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    for (const folder of folders) await vi.waitFor(async () => expect(temps(await readdir(folder))).toEqual([]), { timeout: 10_000 });
  });
});

describe('the start-up temp sweep at scale', () => {
  const bed = useEngineTestBed();

  it('reads no page of a batch before start() returns; later removes its leftovers, whatever their dates, and leaves a temp changed since the start', async () => {
    await mkdir(join(bed.input, 'sub'));
    await writePhotos(join(bed.input, 'sub'), 2);
    const out = join(bed.dir.path, 'out');
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 2 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input], recursive: true }, output: { outputFolder: out } });
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    await bed.stopEngine();

    const [id1, id2] = engine.listItems({ batchId: batch.id }).items.map((i) => i.id);
    const old = `.batchroom-${id1}-0a1b2c3d.part`;
    // A leftover dated ahead (a camera's clock): "older than the start" would have kept it for good.
    const ahead = `.batchroom-${id2}-0a1b2c3d.part.finish`;
    // A temp someone is writing as the sweep runs, dated back as the metadata step dates a result to its capture time.
    const live = '.batchroom-99887766.part';
    for (const [name, date] of [[old, HOUR_AGO], [ahead, new Date(Date.now() + 365 * 86_400_000)], [live, HOUR_AGO]] as const) {
      await writeFile(join(out, 'sub', name), '');
      await utimes(join(out, 'sub', name), date, date);
    }

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
    // The engine's clock a minute behind: `live` was changed (its ctime) after this start, as a file written now is.
    engine = bed.setEngine(createEngine({ journal: counting, client: createFakeClient(), concurrency: 2, logger, now: () => new Date(Date.now() - 60_000) }));
    await engine.start();
    expect(pagesRead).toBe(0);
    await vi.waitFor(() => expect(records.some((r) => r.message === 'temp sweep done')).toBe(true), { timeout: 10_000 });
    expect(pagesRead).toBeGreaterThan(0);
    const left = await readdir(join(out, 'sub'));
    expect(left).not.toContain(old);
    expect(left).not.toContain(ahead);
    expect(left).toContain(live);
  });
});
