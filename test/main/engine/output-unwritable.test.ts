import { open } from 'node:fs/promises';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine } from '../../../main/core/engine';
import { outputFs, restoreOutputFs } from '../../../main/core/images/output-fs';
import { openResultCache } from '../../../main/core/engine/result-cache';
import { settleSaveError } from '../../../main/core/engine/save-steps';
import { OutputUnwritable, SaveAbandoned } from '../../../main/core/engine/save-errors';
import { createFakeClient } from './fake-client';
import { until } from '../../helpers/until';
import { listFilesDeep, tempFilesIn, useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// A paid result the output folder refuses, one errno at a time through the injectable file system (output-fs.ts):
// the batch pauses with code output-unwritable and a message naming the folder and the cause, no item fails, no temp
// stays, and once the folder takes writes again (the engine looks by itself every few seconds, or Resume) every
// result is saved from the result cache — without a new execution and without downloading it again. Before, each
// such item was marked failed ("save-failed") and a second run paid for it again.

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

/** Writes under `folder` fail with `code`: at open (EROFS, EACCES…) or half way through the file (ENOSPC…). */
function refuseWritesUnder(folder: string, code: string, how: 'open' | 'mid-write') {
  const inside = (path: unknown) => String(path).startsWith(folder + sep) || String(path) === folder;
  const realOpen = open;
  outputFs.open = (async (path: Parameters<typeof open>[0], flags?: Parameters<typeof open>[1], mode?: Parameters<typeof open>[2]) => {
    if (!inside(path) || flags === 'r') return realOpen(path, flags, mode);
    if (how === 'open') throw errno(code);
    const handle = await realOpen(path, flags, mode);
    (handle as unknown as { write: () => Promise<never> }).write = async () => { throw errno(code); };
    return handle;
  }) as typeof outputFs.open;
  for (const key of ['link', 'rename'] as const) {
    const real = outputFs[key] as (a: string, b: string) => Promise<void>;
    (outputFs as unknown as Record<string, unknown>)[key] = async (a: string, b: string) => {
      if (inside(b)) throw errno(code);
      return real(a, b);
    };
  }
}

const MESSAGES: Record<string, RegExp> = {
  ENOSPC: /^Output disk full: [\d.]+ [KMG]B free on .*out\. Free space, then Resume\.$/,
  EDQUOT: /^Disk quota exceeded on .*out \(/,
  EROFS: /^Output folder .*out is on a read-only disk\. Make it writable, then Resume\.$/,
  EACCES: /^No permission to write in .*out\. Fix its permissions, then Resume\.$/,
  EPERM: /^No permission to write in .*out\. Fix its permissions, then Resume\.$/,
  EIO: /^The disk of .*out reported an input\/output error/,
};

describe('a paid result the output folder refuses', () => {
  const bed = useEngineTestBed();
  afterEach(() => restoreOutputFs());

  async function pausedByTheDisk(fault: (out: string) => Promise<void> | void, { photos = 3, resultCacheBytes }: { photos?: number; resultCacheBytes?: number } = {}) {
    const hold = { held: true };
    const client = createFakeClient({ hold });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 4, ...(resultCacheBytes === undefined ? {} : { resultCacheBytes }) }));
    await engine.start();
    await writePhotos(bed.input, photos);
    const out = join(bed.dir.path, 'out');
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => client.executeCalls() >= photos, 'every photo to be sent');
    await fault(out);
    hold.held = false;
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 15_000 });
    return { engine, client, batch, out, paused };
  }

  async function expectAllSavedOnce(engine: ReturnType<typeof createEngine>, client: ReturnType<typeof createFakeClient>, batchId: string, out: string, photos = 3) {
    const done = await waitForBatch(engine, batchId, { timeoutMs: 15_000 });
    expect(done.state).toBe('completed');
    expect(done.counts.saved).toBe(photos);
    expect(done.counts.failed ?? 0).toBe(0);
    expect(client.executeCalls()).toBe(photos);
    expect(await listFilesDeep(out)).toHaveLength(photos);
    expect(await tempFilesIn(out)).toEqual([]);
  }

  for (const [code, how] of [['ENOSPC', 'mid-write'], ['EDQUOT', 'mid-write'], ['EIO', 'mid-write'], ['EROFS', 'open'], ['EACCES', 'open'], ['EPERM', 'open']] as const) {
    it(`${code} (${how}): pauses output-unwritable, fails nothing, then saves every result by itself without a new execution`, async () => {
      let downloads = 0;
      const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => refuseWritesUnder(folder, code, how));
      const download = client.downloadResult;
      client.downloadResult = async (...args) => { downloads++; return download(...args); };
      expect(paused.pauseCode).toBe('output-unwritable');
      expect(paused.pausedReason).toMatch(MESSAGES[code]!);
      expect(paused.counts.failed ?? 0).toBe(0);
      expect(paused.counts.downloading).toBe(3);
      for (const item of engine.listItems({ batchId: batch.id }).items) {
        expect(item.state).toBe('downloading');
        expect(item.executionId).toBeTruthy();
        expect(item.reason).toMatch(/^paid, not saved yet: /);
      }
      expect(await tempFilesIn(out)).toEqual([]);
      restoreOutputFs();
      // Nobody presses Resume: the engine's own look at the folder finds it writable.
      await expectAllSavedOnce(engine, client, batch.id, out);
      expect(downloads).toBe(0); // saved from the result cache, not downloaded again
      expect(engine.getBatch(batch.id).pauseCode).toBeNull();
    });
  }

  it('ENOENT of the output folder (an unplugged drive): never recreates it, saves once it is back; Resume also works', async () => {
    const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => rm(folder, { recursive: true, force: true }));
    expect(paused.pauseCode).toBe('output-unwritable');
    expect(paused.pausedReason).toMatch(/^Output folder .*out is not there \(drive unplugged or share unmounted\?\)\. Reconnect it, then Resume\.$/);
    expect(paused.counts.failed ?? 0).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await readdir(out).catch((e: NodeJS.ErrnoException) => e.code)).toBe('ENOENT');
    // A Resume while it is still gone pauses again, with the same reason, and pays nothing.
    engine.resume(batch.id);
    const again = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 10_000 });
    expect(again.pausedReason).toMatch(/is not there/);
    await mkdir(out);
    engine.resume(batch.id);
    await expectAllSavedOnce(engine, client, batch.id, out);
  });

  it('says so when the result cache cannot keep the results either, and downloads them again (never executes again)', async () => {
    let downloads = 0;
    const cacheDir = join(bed.dir.path, 'state', 'result-cache');
    const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => {
      refuseWritesUnder(folder, 'ENOSPC', 'open');
      const refuse = outputFs.open;
      outputFs.open = (async (path: Parameters<typeof open>[0], ...rest: unknown[]) => {
        if (String(path).startsWith(cacheDir)) throw errno('ENOSPC');
        return (refuse as (...a: unknown[]) => unknown)(path, ...rest);
      }) as typeof outputFs.open;
    });
    const download = client.downloadResult;
    client.downloadResult = async (...args) => { downloads++; return download(...args); };
    expect(paused.pausedReason).toMatch(/^Output disk full: .* The paid results could not be kept meanwhile: the result cache in .*result-cache could not be written \(ENOSPC\); they are downloaded again while the service keeps them\.$/);
    expect(paused.counts.failed ?? 0).toBe(0);
    restoreOutputFs();
    await expectAllSavedOnce(engine, client, batch.id, out);
    expect(downloads).toBeGreaterThanOrEqual(3);
  });

  it('a result the service lost and the cache did not keep becomes charged-no-result, never a new execution', async () => {
    const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => refuseWritesUnder(folder, 'EROFS', 'open'), { photos: 1, resultCacheBytes: 0 });
    expect(paused.pauseCode).toBe('output-unwritable');
    // Meanwhile the service forgets the execution and its result URL expires.
    client.getExecution = async (id) => { throw new AppError('not_found', `no execution ${id}`); };
    client.downloadResult = async () => { throw new AppError('not_found', 'result expired'); };
    restoreOutputFs();
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 15_000 });
    expect(done.counts['charged-no-result']).toBe(1);
    expect(client.executeCalls()).toBe(1);
    const [item] = engine.listItems({ batchId: batch.id }).items;
    expect(item!.reason).toMatch(/no longer knows execution .*Report to provider/);
    expect(await tempFilesIn(out)).toEqual([]);
  });

  it('a result URL gone even after a refresh (expired at the service, not kept): charged-no-result, not failed, not sent again', async () => {
    const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => refuseWritesUnder(folder, 'ENOSPC', 'open'), { photos: 1, resultCacheBytes: 0 });
    expect(paused.pauseCode).toBe('output-unwritable');
    // The service still knows the execution, but its result expired meanwhile (410 at every URL it gives).
    client.downloadResult = async () => { throw new AppError('not_found', 'this result URL has expired'); };
    restoreOutputFs();
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 15_000 });
    expect(done.counts['charged-no-result']).toBe(1);
    expect(done.counts.failed ?? 0).toBe(0);
    expect(client.executeCalls()).toBe(1);
    expect(engine.listItems({ batchId: batch.id }).items[0]!.reason).toMatch(/expired at the service before it could be saved and was not kept/);
    expect(engine.providerReport(batch.id).rows).toHaveLength(1);
    expect(await tempFilesIn(out)).toEqual([]);
  });

  it('a disk that turns read-only at the chmod that narrows a written result: paused, 0 failed, saved once later', async () => {
    // Seen on a real read-only remount under load: the result was written, its chmod got EROFS, the item "failed".
    const { engine, client, batch, out, paused } = await pausedByTheDisk((folder) => {
      outputFs.chmod = async (path) => { if (String(path).startsWith(folder + sep)) throw errno('EROFS'); };
    });
    expect(paused.pauseCode).toBe('output-unwritable');
    expect(paused.pausedReason).toMatch(MESSAGES.EROFS!);
    expect(engine.listItems({ batchId: batch.id }).items.filter((i) => i.state === 'failed').map((i) => i.reason)).toEqual([]);
    expect(await tempFilesIn(out)).toEqual([]);
    restoreOutputFs();
    await expectAllSavedOnce(engine, client, batch.id, out);
  });

  it('a step that fails without an errno while the folder refuses writes (a decoder, ExifTool): paused, not failed', async () => {
    const out = join(bed.dir.path, 'out');
    await mkdir(out, { recursive: true });
    const notes = { cacheProblem: null };
    const plain = new Error('VipsForeignSave: unable to write to target');
    // The folder takes writes: the error stays what it was.
    expect(await settleSaveError(plain, out, out, notes)).toBe(plain);
    refuseWritesUnder(out, 'EROFS', 'open');
    const settled = await settleSaveError(plain, out, out, notes);
    expect(settled).toBeInstanceOf(OutputUnwritable);
    expect((settled as Error).message).toMatch(MESSAGES.EROFS!);
    // Our own outcomes and a cancelled save stay as they are.
    const abandoned = new SaveAbandoned('stop');
    expect(await settleSaveError(abandoned, out, out, notes)).toBe(abandoned);
    const controller = new AbortController();
    controller.abort();
    expect(await settleSaveError(plain, out, out, notes, controller.signal)).toBe(plain);
  });

  it('a disk that turns read-only between placing a result and removing its temp: saved once, never again as "(2)"', async () => {
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2 }));
    await engine.start();
    await writePhotos(bed.input, 3);
    const out = join(bed.dir.path, 'out');
    const realUnlink = outputFs.unlink;
    // The hard link that places the result succeeds; the temp's unlink right after it is refused.
    outputFs.unlink = async (path) => {
      if (String(path).startsWith(out + sep) && String(path).includes('.batchroom-')) throw errno('EROFS');
      return realUnlink(path);
    };
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 15_000 });
    expect(done.counts.saved).toBe(3);
    expect(client.executeCalls()).toBe(3);
    const results = (await listFilesDeep(out)).filter((p) => p.endsWith('.jpg'));
    expect(results).toHaveLength(3);
    expect(results.filter((p) => p.includes('(2)'))).toEqual([]);
    // The temps it could not remove go at the next start's sweep (or the next save once the disk takes writes).
    restoreOutputFs();
    await bed.stopEngine();
    await bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2 })).start();
    expect(await tempFilesIn(out)).toEqual([]);
  });

  it('a start that finds a placement a crash interrupted on a disk now read-only: starts, pauses, saves it once later', async () => {
    const client = createFakeClient();
    let engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    await writePhotos(bed.input, 1);
    const out = join(bed.dir.path, 'out');
    // The placement never returns (the process dies right there): its final name is journalled, its temp is on disk.
    const realLink = outputFs.link;
    outputFs.link = (async (a: string, b: string) => (String(b).startsWith(out + sep) ? new Promise<never>(() => undefined) : realLink(a, b))) as typeof outputFs.link;
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    const [itemId] = engine.listItems({ batchId: batch.id }).items.map((i) => i.id);
    await until(() => bed.journal.getItem(itemId!)!.pendingFinal !== null, 'the final name to be journalled');
    await bed.stopEngine();
    expect(bed.journal.getItem(itemId!)).toMatchObject({ state: 'downloading', outputs: [] });
    restoreOutputFs();
    refuseWritesUnder(out, 'EROFS', 'open');
    engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start(); // before: the refused rename of the recovery rejected start()
    const paused = await waitForBatch(engine, batch.id, { states: ['paused'], timeoutMs: 10_000 });
    expect(paused.pauseCode).toBe('output-unwritable');
    restoreOutputFs();
    await expectAllSavedOnce(engine, client, batch.id, out, 1);
    expect((await listFilesDeep(out)).filter((p) => p.includes('(2)'))).toEqual([]);
  });

  it('keeps its results in the state folder by execution id and result index (the API other engine parts read)', async () => {
    const { engine, batch, paused } = await pausedByTheDisk((folder) => refuseWritesUnder(folder, 'EROFS', 'open'), { photos: 1 });
    expect(paused.pauseCode).toBe('output-unwritable');
    const [item] = engine.listItems({ batchId: batch.id }).items;
    const cache = openResultCache(join(bed.dir.path, 'state'));
    expect(await cache.get(item!.executionId!, 0)).toMatch(/result-cache/);
    expect(await cache.get(item!.executionId!, 1)).toBeNull();
    expect(await cache.get('exe_never_seen', 0)).toBeNull();
  });
});
