import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForUpload, toDataUrl } from '../../../main/core/images/encode';
import { makeTempDir } from '../engine/helpers';
import { buildCorpus } from '../engine/corpus';
import { swallowHeifParseNoise } from '../../helpers/decoder-noise';

describe('encoding for upload', () => {
  let dir: { path: string; cleanup: () => Promise<void> };

  beforeAll(async () => {
    dir = await makeTempDir('batchroom-encode-');
    await buildCorpus(dir.path, { readOnlyCase: false });
  });

  afterAll(async () => {
    await dir.cleanup();
  });

  const fit = { policy: 'fit' as const, stripMetadata: true };

  it('turns EXIF-rotated photos upright', async () => {
    const out = await encodeForUpload(join(dir.path, 'exif-rotated.jpg'), fit);
    expect([out.width, out.height]).toEqual([60, 90]);
    expect((await sharp(out.data).metadata()).orientation).toBeUndefined();
  });

  it('strips metadata (GPS) by default and keeps it when asked', async () => {
    const path = join(dir.path, 'gps.jpg');
    await writeFile(path, await sharp({ create: { width: 50, height: 40, channels: 3, background: '#123' } })
      .withExifMerge({ IFD0: { Copyright: 'Someone', Make: 'Camera' } }).jpeg().toBuffer());
    const stripped = await sharp((await encodeForUpload(path, fit)).data).metadata();
    expect(stripped.exif).toBeUndefined();
    const kept = await sharp((await encodeForUpload(path, { ...fit, stripMetadata: false })).data).metadata();
    expect(kept.exif).toBeDefined();
  });

  it('downscales the long edge to what the output size can use, unless originals are asked for', async () => {
    const path = join(dir.path, 'large.jpg');
    expect((await encodeForUpload(path, fit)).width).toBe(1024);
    expect((await encodeForUpload(path, { ...fit, imageSize: '2K' })).width).toBe(2048);
    expect((await encodeForUpload(path, { ...fit, policy: 'original' })).width).toBe(3000);
    // Never enlarged.
    expect((await encodeForUpload(join(dir.path, 'grey.jpg'), { ...fit, imageSize: '2K' })).width).toBe(64);
  });

  it('keeps alpha (PNG) and sends opaque images as JPEG in sRGB', async () => {
    const alpha = await encodeForUpload(join(dir.path, 'alpha.png'), fit);
    expect(alpha.mime).toBe('image/png');
    expect((await sharp(alpha.data).metadata()).hasAlpha).toBe(true);
    const cmyk = await encodeForUpload(join(dir.path, 'cmyk.jpg'), fit);
    expect(cmyk.mime).toBe('image/jpeg');
    expect((await sharp(cmyk.data).metadata()).space).toBe('srgb');
    const deep = await encodeForUpload(join(dir.path, '16-bit.png'), fit);
    expect((await sharp(deep.data).metadata()).depth).toBe('uchar');
    expect(toDataUrl(cmyk)).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('decodes HEIC through the WASM decoder', async () => {
    const out = await encodeForUpload(join(dir.path, 'camera.heic'), fit);
    expect([out.width, out.height]).toEqual([64, 48]);
    expect(out.mime).toBe('image/jpeg');
    const { dominant } = await sharp(out.data).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
  });

  it.each([
    ['zero-byte.jpg', /^empty file \(0 bytes\)$/],
    ['truncated.jpg', /truncated or corrupt/],
    ['text-renamed.jpg', /^not an image, or an image format Batchroom cannot read$/],
    ['bomb.png', /^image too large: more than 100 megapixels/],
    ['truncated.heic', /^HEIC\/HEIF file is corrupt/],
    ['missing.jpg', /^file not found/],
  ])('refuses %s with a readable reason', async (file, reason) => {
    const restore = swallowHeifParseNoise();
    try {
      await expect(encodeForUpload(join(dir.path, file), fit)).rejects.toThrow(reason);
    } finally {
      restore();
    }
  });

  it('reads the first frame of an animated GIF', async () => {
    const out = await encodeForUpload(join(dir.path, 'animated.gif'), fit);
    expect([out.width, out.height]).toEqual([30, 30]);
  });

  it('reports the original size for upload ratios', async () => {
    const path = join(dir.path, 'large.jpg');
    const out = await encodeForUpload(path, fit);
    expect(out.originalBytes).toBe((await readFile(path)).length);
  });
});
