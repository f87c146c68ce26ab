import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbnailCache, THUMBNAIL_EDGE } from '../../../main/core/images/thumbnails';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-thumbs-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('queue thumbnails', () => {
  it('makes a small upright JPEG once per file version, and shares a resize asked for twice at once', async () => {
    const photo = join(dir, 'IMG_1.jpg');
    // 600×400 stored sideways (EXIF orientation 6): the thumbnail is upright, 64×96.
    await sharp({ create: { width: 600, height: 400, channels: 3, background: '#c04020' } }).withMetadata({ orientation: 6 }).jpeg().toFile(photo);
    const cache = createThumbnailCache(join(dir, 'cache'));
    const [a, b] = await Promise.all([cache.get(photo), cache.get(photo)]);
    expect(a).toBe(b);
    expect(await readdir(join(dir, 'cache'))).toHaveLength(1);
    const meta = await sharp(a!).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 64, height: THUMBNAIL_EDGE });
    expect(await cache.get(photo)).toBe(a);

    // A new version of the file (other size or time) gets a new thumbnail.
    await sharp({ create: { width: 300, height: 300, channels: 3, background: '#2040c0' } }).jpeg().toFile(photo);
    await utimes(photo, new Date(), new Date(Date.now() + 5_000));
    const c = await cache.get(photo);
    expect(c).not.toBe(a);
    expect((await sharp(c!).metadata()).width).toBe(THUMBNAIL_EDGE);
  });

  it('has none for what sharp cannot read, and leaves no partial file', async () => {
    const broken = join(dir, 'broken.jpg');
    await writeFile(broken, 'not a jpeg at all');
    const cache = createThumbnailCache(join(dir, 'cache2'));
    expect(await cache.get(broken)).toBeNull();
    expect(await cache.get(join(dir, 'missing.jpg'))).toBeNull();
    expect(await readdir(join(dir, 'cache2')).catch(() => [])).toEqual([]);
  });
});
