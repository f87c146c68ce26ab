import { copyFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbnailCache, THUMBNAIL_EDGE } from '../../../main/core/images/thumbnails';
import { createViewableOriginals, VIEWABLE_EDGE } from '../../../main/core/images/viewable';
import { makeTempDir } from '../engine/helpers';
import { DISPLAY_P3, patchStrip, worstDeltaE } from './colour-kit';

// Issue 31 #12: the review's before/after was a broken image for TIFF and HEIC, and a HEIC had no queue thumbnail —
// the original was handed to the page as it is, and no browser draws those. Every accepted format that a browser
// does not draw itself is shown as a rendition: upright, sRGB, screen-sized, made once per file version.

const HEIC = fileURLToPath(new URL('../../fixtures/images/tiny.heic', import.meta.url));

describe('what the screen is given for each format', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-viewable-formats-');
  });
  afterAll(() => dir.cleanup());

  const viewable = () => createViewableOriginals(join(dir.path, `previews-${Math.random().toString(16).slice(2)}`), () => null);
  const photo = (width: number, height: number, channels: 3 | 4 = 3) =>
    sharp({ create: { width, height, channels, background: channels === 4 ? { r: 200, g: 40, b: 30, alpha: 0.5 } : '#c82818' } });

  it('a TIFF (8-bit, sideways by EXIF) is shown as an upright JPEG rendition, made once per file version', async () => {
    const tiff = join(dir.path, 'scan.tif');
    await photo(300, 200).withMetadata({ orientation: 6 }).tiff().toFile(tiff);
    const shown = viewable();
    const first = await shown.get(tiff);
    expect(first).toMatch(/[0-9a-f]{40}\.jpg$/);
    const meta = await sharp(first!).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({ format: 'jpeg', width: 200, height: 300, orientation: undefined });
    // A second look reads the rendition from disk: same file, not written again.
    const made = (await stat(first!)).mtimeMs;
    expect(await shown.get(tiff)).toBe(first);
    expect((await stat(first!)).mtimeMs).toBe(made);
  });

  it('a 16-bit Display P3 TIFF and a 16-bit PNG are rendered as 8-bit sRGB: right colours with the profile ignored', async () => {
    const strip = await patchStrip(DISPLAY_P3, 16);
    const tiff = join(dir.path, 'p3-16.tiff');
    await sharp(strip).keepIccProfile().toColourspace('rgb16').tiff({ compression: 'lzw' }).toFile(tiff);
    expect((await sharp(tiff).metadata()).depth).toBe('ushort');
    expect(await worstDeltaE(tiff)).toBeLessThan(1); // the fixture is right through its own profile
    const png = join(dir.path, 'p3-16.png');
    await writeFile(png, strip);
    const shown = viewable();
    for (const original of [tiff, png]) {
      const rendition = await shown.get(original);
      expect(rendition).toMatch(/\.jpg$/);
      expect((await sharp(rendition!).metadata()).depth).toBe('uchar');
      // The pixels themselves are sRGB: read as untagged they still match the truth (P3 values would be ΔE ≫ 2).
      const untagged = await sharp(rendition!, { ignoreIcc: true }).png().toBuffer();
      expect(await worstDeltaE(untagged)).toBeLessThan(2);
    }
  });

  it('a HEIC is decoded into a JPEG rendition, and the queue gets a thumbnail of it', async () => {
    const heic = join(dir.path, 'IMG_0001.HEIC');
    await copyFile(HEIC, heic);
    const rendition = await viewable().get(heic);
    expect(rendition).toMatch(/\.jpg$/);
    const meta = await sharp(rendition!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
    const { dominant } = await sharp(rendition!).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b); // the fixture is #c04020
    const thumbnail = await createThumbnailCache(join(dir.path, 'thumbs')).get(rendition!);
    expect((await sharp(thumbnail!).metadata()).width).toBe(64);
  });

  it('a TIFF with transparency keeps it (WebP); a large one is fitted to the screen edge', async () => {
    const tiff = join(dir.path, 'cutout.tif');
    // LZW: sharp's default TIFF compression (JPEG) would drop the alpha channel.
    await sharp(await photo(VIEWABLE_EDGE * 2, 100, 4).png().toBuffer()).tiff({ compression: 'lzw' }).toFile(tiff);
    expect((await sharp(tiff).metadata()).hasAlpha).toBe(true);
    const rendition = await viewable().get(tiff);
    expect(rendition).toMatch(/\.webp$/);
    const meta = await sharp(rendition!).metadata();
    expect([meta.format, meta.hasAlpha, meta.width]).toEqual(['webp', true, VIEWABLE_EDGE]);
    const thumbnail = await createThumbnailCache(join(dir.path, 'thumbs-alpha')).get(rendition!);
    expect((await sharp(thumbnail!).metadata()).width).toBe(THUMBNAIL_EDGE);
  });

  it('JPEG, 8-bit PNG and WebP are shown as they are; a TIFF named .jpg is judged by its bytes', async () => {
    const shown = viewable();
    for (const [name, make] of [['a.jpg', photo(40, 30).jpeg()], ['b.png', photo(40, 30, 4).png()], ['c.webp', photo(40, 30).webp()]] as const) {
      const path = join(dir.path, name);
      await make.toFile(path);
      expect(await shown.get(path)).toBe(path);
    }
    const liar = join(dir.path, 'not-really.jpg');
    await writeFile(liar, await photo(40, 30).tiff().toBuffer());
    expect(await shown.get(liar)).toMatch(/[0-9a-f]{40}\.jpg$/);
    // A JPEG named .tif would be served as image/tiff: rendered too.
    const misnamed = join(dir.path, 'review-copy.tif');
    await photo(40, 30).jpeg().toFile(misnamed);
    expect(await shown.get(misnamed)).toMatch(/[0-9a-f]{40}\.jpg$/);
    const junk = join(dir.path, 'junk.tif');
    await writeFile(junk, 'not a picture');
    expect(await shown.get(junk)).toBeNull();
    expect(await shown.get(join(dir.path, 'missing.tif'))).toBeNull();
  });
});
