import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyInputFile } from '../../../main/core/images/classify';
import { hashFile } from '../../../main/core/images/hash';
import { scanInputs } from '../../../main/core/images/scan';

describe('input classification', () => {
  it.each([
    ['/a/photo.JPG', null],
    ['/a/photo.heic', null],
    ['/a/photo.tiff', null],
    ['/a/Thumbs.db', 'system file'],
    ['/a/.DS_Store', 'system file'],
    ['/a/.hidden.jpg', 'hidden file'],
    ['/a/._photo.jpg', 'macOS resource fork'],
    ['/a/~$draft.jpg', 'temporary file'],
    ['/a/photo.jpg.part', 'partial download'],
    ['/a/photo.jpg.crdownload', 'partial download'],
    ['/a/photo.tmp', 'partial download'],
    ['/a/notes.txt', 'not a supported image type (.txt)'],
    ['/a/README', 'no file extension'],
    ['/a/.batchroom-x.part', 'Batchroom temporary file'],
  ])('%s', (path, reason) => {
    const verdict = classifyInputFile(path);
    if (reason === null) expect(verdict.ok).toBe(true);
    else expect(verdict.ok ? '' : verdict.reason).toContain(reason);
  });
});

describe('scanning inputs', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-scan-'));
    await mkdir(join(dir, 'in', 'sub', 'deeper'), { recursive: true });
    await mkdir(join(dir, 'in', '.git'), { recursive: true });
    await mkdir(join(dir, 'in', 'out'), { recursive: true });
    for (const name of ['b.jpg', 'a.png', 'notes.txt', 'sub/c.jpg', 'sub/deeper/d.webp', '.git/e.jpg', 'out/result.jpg']) {
      await writeFile(join(dir, 'in', name), name);
    }
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists images in a stable order, with reasons for skipped files', async () => {
    const flat = await scanInputs([join(dir, 'in')], { recursive: false });
    expect(flat.files.map((f) => f.path)).toEqual([join(dir, 'in', 'a.png'), join(dir, 'in', 'b.jpg')]);
    expect(flat.skipped).toEqual([{ path: join(dir, 'in', 'notes.txt'), reason: 'not a supported image type (.txt)' }]);
  });

  it('recurses with relative folders, skipping hidden folders and the output folder', async () => {
    const deep = await scanInputs([join(dir, 'in')], { recursive: true, exclude: [join(dir, 'in', 'out')] });
    expect(deep.files.map((f) => [f.relDir, f.path.split('/').pop()])).toEqual([
      ['', 'a.png'], ['', 'b.jpg'], ['sub', 'c.jpg'], [join('sub', 'deeper'), 'd.webp'],
    ]);
  });

  it('reports missing paths and does not list a file twice', async () => {
    const result = await scanInputs([join(dir, 'in', 'a.png'), join(dir, 'in', 'a.png'), join(dir, 'missing.jpg')], { recursive: false });
    expect(result.files).toHaveLength(1);
    expect(result.skipped).toEqual([{ path: join(dir, 'missing.jpg'), reason: 'file not found' }]);
  });

  it('hashes content with sha256', async () => {
    const { createHash } = await import('node:crypto');
    expect(await hashFile(join(dir, 'in', 'a.png'))).toBe(createHash('sha256').update('a.png').digest('hex'));
  });
});
