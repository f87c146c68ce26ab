import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { looksComplete } from '../../../main/core/watch/complete-file';
import { createFileHashCache } from '../../../main/core/watch/hash-cache';
import { ignoreRulesFor, junkReason } from '../../../main/core/watch/ignore';
import { isInside } from '../../../main/core/media/inside-root';
import { createLimiter } from '../../../main/core/watch/limit';
import { moveOriginal } from '../../../main/core/watch/originals';
import { jpegBytes, removeDir, sleep, tempDir } from './fakes';

let root: string;
beforeEach(async () => {
  root = await tempDir('br-watch-unit-');
});
afterEach(async () => {
  await removeDir(root);
});

describe('ignore rules', () => {
  it('names junk, hidden, partial and temporary files, and lets photos through', () => {
    for (const name of ['Thumbs.db', 'desktop.ini', '.DS_Store', '.hidden.jpg', 'a.jpg.part', 'b.crdownload', 'c.TMP', '~$d.jpg']) {
      expect(junkReason(join(root, name)), name).not.toBeNull();
    }
    for (const name of ['IMG_0001.JPG', 'photo.heic', 'tmp-photo.jpg', 'party.jpg']) expect(junkReason(join(root, name)), name).toBeNull();
  });

  it('excludes the output, Done and Failed folders and everything below them, never the root', () => {
    const inbox = join(root, 'in');
    const ignored = ignoreRulesFor(inbox, join(inbox, 'results'));
    expect(ignored(inbox)).toBe(false);
    expect(ignored(join(inbox, 'a.jpg'))).toBe(false);
    expect(ignored(join(inbox, 'sub', 'a.jpg'))).toBe(false);
    expect(ignored(join(inbox, 'results'))).toBe(true);
    expect(ignored(join(inbox, 'results', 'x', 'a.jpg'))).toBe(true);
    expect(ignored(join(inbox, 'Done', 'a.jpg'))).toBe(true);
    expect(ignored(join(inbox, 'Failed'))).toBe(true);
    expect(ignored(join(inbox, 'results-2', 'a.jpg'))).toBe(false);
    expect(isInside(join(root, 'a', 'b'), join(root, 'a'))).toBe(true);
    expect(isInside(join(root, 'ab'), join(root, 'a'))).toBe(false);
  });
});

describe('moving originals', () => {
  it('mirrors the sub-path and suffixes names already taken, never overwriting', async () => {
    const inbox = join(root, 'in');
    await mkdir(join(inbox, 'day1'), { recursive: true });
    const contents: string[] = [];
    for (let i = 0; i < 3; i++) {
      await writeFile(join(inbox, 'day1', 'IMG.jpg'), `version ${i}`);
      contents.push(`version ${i}`);
      await moveOriginal(inbox, join(inbox, 'day1', 'IMG.jpg'), 'Done');
    }
    const done = join(inbox, 'Done', 'day1');
    expect((await readdir(done)).sort()).toEqual(['IMG (2).jpg', 'IMG (3).jpg', 'IMG.jpg']);
    expect(await readFile(join(done, 'IMG.jpg'), 'utf8')).toBe('version 0');
    expect(await readFile(join(done, 'IMG (3).jpg'), 'utf8')).toBe('version 2');
    expect(await readdir(join(inbox, 'day1'))).toEqual([]);
  });
});

describe('write completeness', () => {
  it('knows a JPEG without its end marker is still being written', async () => {
    const full = jpegBytes('complete', 300);
    await writeFile(join(root, 'full.jpg'), full);
    await writeFile(join(root, 'half.jpg'), full.subarray(0, 150));
    await writeFile(join(root, 'other.bin'), Buffer.alloc(100, 1));
    expect(await looksComplete(join(root, 'full.jpg'))).toBe(true);
    expect(await looksComplete(join(root, 'half.jpg'))).toBe(false);
    expect(await looksComplete(join(root, 'other.bin'))).toBe(true);
    expect(await looksComplete(join(root, 'missing.jpg'))).toBe(true);
  });
});

describe('hash cache', () => {
  it('round-trips through its file and compacts superseded lines', async () => {
    const cache = createFileHashCache(join(root, 'state'));
    const hash = (n: number) => n.toString(16).padStart(64, '0');
    for (let i = 0; i < 1_500; i++) await cache.add('f/1', 'same-key', hash(i));
    await cache.add('f/1', 'other', hash(7));
    const loaded = await cache.load('f/1');
    expect(loaded).toEqual(new Map([['same-key', hash(1_499)], ['other', hash(7)]]));
    const text = await readFile(join(root, 'state', 'f_1.hashes'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    await cache.clear('f/1');
    expect((await cache.load('f/1')).size).toBe(0);
  });
});

describe('limiter', () => {
  it('never runs more than its concurrency at once', async () => {
    const limit = createLimiter(3);
    let active = 0;
    let peak = 0;
    await Promise.all(Array.from({ length: 20 }, () => limit(async () => {
      active++;
      peak = Math.max(peak, active);
      await sleep(5);
      active--;
    })));
    expect(peak).toBe(3);
  });
});

describe('runLimited', () => {
  it('runs every item with at most N at once, and one failure does not stop the others', async () => {
    const { runLimited } = await import('../../../main/core/watch/limit');
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    await runLimited(Array.from({ length: 12 }, (_, i) => i), 4, async (i) => {
      active++;
      peak = Math.max(peak, active);
      await sleep(3);
      active--;
      if (i === 5) throw new Error('one bad file');
      done.push(i);
    });
    expect(peak).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
  });
});
