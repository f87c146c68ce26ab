import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyInputFile } from '../../../main/core/images/classify';
import { hashFile } from '../../../main/core/images/hash';

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

describe('hashing', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-hash-'));
    await writeFile(join(dir, 'a.png'), 'a.png');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hashes content with sha256', async () => {
    const { createHash } = await import('node:crypto');
    expect(await hashFile(join(dir, 'a.png'))).toBe(createHash('sha256').update('a.png').digest('hex'));
  });
});
