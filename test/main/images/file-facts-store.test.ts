import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileFacts, fileFactReads } from '../../../main/core/images/file-facts';
import { FACTS_FILE } from '../../../main/core/images/file-facts-store';
import { headerSize, readFileFacts } from '../../../main/core/images/file-read';
import { hashFile } from '../../../main/core/images/hash';

describe('file facts kept in the state folder (warm planning)', () => {
  let dir: string;
  let state: string;
  const later = () => Date.now() + 10_000;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-facts-store-'));
    state = join(dir, 'state');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function photo(name: string, width = 120, height = 80): Promise<string> {
    const path = join(dir, name);
    await sharp({ create: { width, height, channels: 3, background: { r: width % 256, g: 40, b: 90 } } }).jpeg().toFile(path);
    return path;
  }

  it('a second process (a new instance on the same state folder) reads none of the photos the first read', async () => {
    const paths = [await photo('a.jpg', 120, 80), await photo('b.jpg', 64, 200)];
    const first = createFileFacts({ dir: state, now: later });
    const hashes = await Promise.all(paths.map((p) => first.contentHash(p)));
    first.close();
    expect(existsSync(join(state, FACTS_FILE))).toBe(true);

    const before = fileFactReads();
    const second = createFileFacts({ dir: state, now: later });
    expect(await Promise.all(paths.map((p) => second.contentHash(p)))).toEqual(hashes);
    expect(await Promise.all(paths.map((p) => second.longEdge(p)))).toEqual([120, 200]);
    expect(fileFactReads() - before).toBe(0);
    expect(hashes).toEqual(await Promise.all(paths.map((p) => hashFile(p))));
    second.close();
  });

  it('reads a photo again when it changed since it was kept', async () => {
    const path = await photo('a.jpg');
    const first = createFileFacts({ dir: state, now: later });
    const old = await first.contentHash(path);
    first.close();
    await writeFile(path, await readFile(await photo('other.jpg', 90, 90)));
    const before = fileFactReads();
    const second = createFileFacts({ dir: state, now: later });
    const fresh = await second.contentHash(path);
    expect(fresh).not.toBe(old);
    expect(fresh).toBe(await hashFile(path));
    expect(await second.longEdge(path)).toBe(90);
    expect(fileFactReads() - before).toBe(1);
    second.close();
  });

  it('keeps nothing of a photo changed in the last 2 s', async () => {
    const path = await photo('a.jpg');
    const first = createFileFacts({ dir: state });
    await first.contentHash(path);
    first.close();
    const before = fileFactReads();
    const second = createFileFacts({ dir: state, now: later });
    await second.contentHash(path);
    expect(fileFactReads() - before).toBe(1);
    second.close();
  });

  it('a damaged store is cold, not an error: it is started afresh and keeps facts again', async () => {
    const path = await photo('a.jpg');
    await rm(state, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(state, { recursive: true }));
    await writeFile(join(state, FACTS_FILE), randomBytes(8192));
    const first = createFileFacts({ dir: state, now: later });
    expect(await first.contentHash(path)).toBe(await hashFile(path));
    first.close();
    const before = fileFactReads();
    const second = createFileFacts({ dir: state, now: later });
    await second.contentHash(path);
    expect(fileFactReads() - before).toBe(0);
    second.close();
  });
});

describe('one read per file: hash and header together', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-file-read-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the same size from a JPEG (baseline, progressive, with EXIF) and a PNG header as sharp does', async () => {
    const made = [
      await sharp({ create: { width: 301, height: 199, channels: 3, background: '#336699' } }).jpeg().toBuffer(),
      await sharp({ create: { width: 77, height: 640, channels: 3, background: '#996633' } }).jpeg({ progressive: true }).withExif({ IFD0: { Make: 'Canon' } }).toBuffer(),
      await sharp({ create: { width: 500, height: 20, channels: 4, background: '#00000000' } }).png().toBuffer(),
    ];
    for (const bytes of made) {
      const { width, height } = await sharp(bytes).metadata();
      expect(headerSize(bytes)).toEqual({ width, height });
    }
    expect(headerSize(Buffer.from('not an image at all'))).toBeNull();
  });

  it('hashes a file larger than one read (chunked) to the same SHA-256, and takes its size from the header', async () => {
    const path = join(dir, 'big.jpg');
    // Noise does not compress: over 4 MB of JPEG, so it is read in chunks.
    const noise = randomBytes(2000 * 2000 * 3);
    await sharp(noise, { raw: { width: 2000, height: 2000, channels: 3 } }).jpeg({ quality: 100 }).toFile(path);
    const facts = await readFileFacts(path);
    expect(facts.size).toBeGreaterThan(4 << 20);
    expect(facts.hash).toBe(await hashFile(path));
    expect(facts.longEdge).toBe(2000);
  });
});
