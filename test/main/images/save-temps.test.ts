import { open } from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishResult } from '../../../main/core/images/finish-result';
import { outputFs, restoreOutputFs } from '../../../main/core/images/output-fs';
import { outputProblem, probeOutputFolder } from '../../../main/core/images/output-health';
import { tempPathFor, writeJsonAtomic, writeTemp } from '../../../main/core/images/save';

// Every write path removes its temp when it fails, a disk filling half way through a write included — through the
// injectable file system (output-fs.ts), one errno at a time. Before, a failed write left its `.part`, and the
// finishing step (libvips writing `<temp>.finish` itself) left zero-byte `.part.finish` files for good.

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

/** Handles whose write fails with `code` from the `failAt`-th write on (ENOSPC half way through a file). */
function failingWrites(code: string, failAt = 1) {
  outputFs.open = (async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    let writes = 0;
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<unknown>;
    (handle as unknown as { write: (...a: unknown[]) => Promise<unknown> }).write = async (...a: unknown[]) => {
      if (++writes >= failAt) throw errno(code);
      return write(...a);
    };
    return handle;
  }) as typeof outputFs.open;
}

describe('no temp file survives a failed write', () => {
  let dir: string;
  let jpeg: Buffer;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-temps-'));
    jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#345678' } }).jpeg().toBuffer();
  });
  afterEach(async () => {
    restoreOutputFs();
    await rm(dir, { recursive: true, force: true });
  });

  for (const code of ['ENOSPC', 'EDQUOT', 'EIO']) {
    it(`writeTemp: ${code} on the second chunk leaves no file and keeps the errno`, async () => {
      failingWrites(code, 2);
      const path = tempPathFor(dir, 'item');
      await expect(writeTemp(path, [jpeg.subarray(0, 100), jpeg.subarray(100)])).rejects.toMatchObject({ code });
      expect(await readdir(dir)).toEqual([]);
    });
  }

  it('writeTemp: short writes (a nearly full disk) are continued, never taken for the whole chunk', async () => {
    // write(2) near a full disk writes part of what it is given; once, that saved a truncated JPEG with no error.
    outputFs.open = (async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      const write = handle.write.bind(handle) as (b: Uint8Array, o: number, l: number) => Promise<{ bytesWritten: number }>;
      (handle as unknown as { write: typeof write }).write = (b, o = 0, l = b.byteLength - o) => write(b, o, Math.min(l, 7));
      return handle;
    }) as typeof outputFs.open;
    const path = tempPathFor(dir, 'item');
    await writeTemp(path, [jpeg]);
    expect((await readFile(path)).equals(jpeg)).toBe(true);
  });

  it('writeTemp: a write that makes no progress is ENOSPC, and leaves no file', async () => {
    outputFs.open = (async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      (handle as unknown as { write: () => Promise<{ bytesWritten: number }> }).write = async () => ({ bytesWritten: 0 });
      return handle;
    }) as typeof outputFs.open;
    await expect(writeTemp(tempPathFor(dir, 'item'), [jpeg])).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('writeTemp: a body that breaks off leaves no file', async () => {
    async function* broken() {
      yield new Uint8Array(10);
      throw new Error('connection reset');
    }
    await expect(writeTemp(tempPathFor(dir, 'item'), broken())).rejects.toThrow(/reset/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('writeJsonAtomic (the JSON sidecar): a refused rename leaves no temp', async () => {
    outputFs.rename = async () => { throw errno('EROFS'); };
    await expect(writeJsonAtomic(join(dir, 'a.jpg.json'), { a: 1 })).rejects.toMatchObject({ code: 'EROFS' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('finishing in place: ENOSPC while writing <temp>.finish leaves no .finish file, the errno reaches the saver', async () => {
    const temp = tempPathFor(dir, 'item');
    await writeTemp(temp, [jpeg]);
    failingWrites('ENOSPC');
    await expect(finishResult(temp, temp, { format: 'jpeg', quality: 90, colour: 'srgb' }, { icc: null, density: null }))
      .rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await readdir(dir)).filter((n) => n.endsWith('.finish'))).toEqual([]);
  });

  it('finishing in place: a refused rename of <temp>.finish leaves no .finish file', async () => {
    const temp = tempPathFor(dir, 'item');
    await writeTemp(temp, [jpeg]);
    outputFs.rename = async () => { throw errno('EIO'); };
    await expect(finishResult(temp, temp, { format: 'png', quality: 90, colour: 'srgb' }, { icc: null, density: null }))
      .rejects.toMatchObject({ code: 'EIO' });
    expect(await readdir(dir)).toEqual([temp.split('/').pop()]);
  });

  it('finishing from the result cache into a new temp: EROFS leaves nothing in the output folder', async () => {
    const source = join(dir, 'cached.bin');
    await writeTemp(source, [jpeg]);
    const out = join(dir, 'out');
    const temp = tempPathFor(out, 'item');
    await writeTemp(join(out, 'keep.txt'), [Buffer.from('x')]);
    outputFs.open = async () => { throw errno('EROFS'); };
    await expect(finishResult(source, temp, { format: 'jpeg', quality: 90, colour: 'srgb' }, { icc: null, density: null }))
      .rejects.toMatchObject({ code: 'EROFS' });
    expect(await readdir(out)).toEqual(['keep.txt']);
  });
});

describe('what an output folder that refuses a write means', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-health-')); });
  afterEach(async () => {
    restoreOutputFs();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the folder and the cause, with the free space a full disk has left', async () => {
    outputFs.statfs = (async () => ({ bavail: 9, bsize: 4096 })) as unknown as typeof outputFs.statfs;
    expect((await outputProblem('ENOSPC', '/mnt/x')).message).toBe('Output disk full: 36 KB free on /mnt/x. Free space, then Resume.');
    expect((await outputProblem('EDQUOT', '/mnt/x')).message).toMatch(/quota exceeded on \/mnt\/x \(36 KB free\)/);
    expect((await outputProblem('EROFS', '/mnt/x')).message).toMatch(/\/mnt\/x is on a read-only disk/);
    expect((await outputProblem('EACCES', '/mnt/x')).message).toMatch(/No permission to write in \/mnt\/x/);
    expect((await outputProblem('EPERM', '/mnt/x')).message).toMatch(/No permission to write in \/mnt\/x/);
    expect((await outputProblem('EIO', '/mnt/x')).message).toMatch(/input\/output error/);
    expect((await outputProblem('ENOENT', '/mnt/x')).message).toMatch(/\/mnt\/x is not there \(drive unplugged or share unmounted\?\)/);
  });

  it('probes without creating a missing output folder, and leaves no probe file', async () => {
    const gone = join(dir, 'card', 'Batchroom');
    expect(await probeOutputFolder(gone)).toMatchObject({ code: 'ENOENT', folder: gone });
    expect(await readdir(dir)).toEqual([]);
    expect(await probeOutputFolder(dir)).toBeNull();
    expect(await readdir(dir)).toEqual([]);
    outputFs.open = async () => { throw errno('EROFS'); };
    expect(await probeOutputFolder(dir)).toMatchObject({ code: 'EROFS' });
    outputFs.statfs = (async () => ({ bavail: 1, bsize: 4096 })) as unknown as typeof outputFs.statfs;
    expect(await probeOutputFolder(dir)).toMatchObject({ code: 'ENOSPC' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('is not writable again until there is room for what waits (no resume that fails again every few seconds)', async () => {
    outputFs.statfs = (async () => ({ bavail: 75, bsize: 4096 })) as unknown as typeof outputFs.statfs; // 300 KB
    expect(await probeOutputFolder(dir, dir)).toBeNull();
    expect(await probeOutputFolder(dir, dir, 800 * 1024)).toMatchObject({ code: 'ENOSPC', message: expect.stringMatching(/^Output disk full: 300 KB free/) });
  });
});
