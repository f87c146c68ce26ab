import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { finishResult } from '../../../main/core/images/finish-result';

// An untagged CMYK result (meta.icc null, depth uchar) is converted to sRGB at the input stage with libvips' CMYK
// profile, and that conversion leaves sRGB's profile on the image. With a DPI the finish keeps the result's metadata
// (keepMetadata), so that profile is written — and withSrgbProfile must not add a second copy: two ICC_PROFILE
// chunks both numbered "1 of 1" are an invalid profile (ExifTool: "Invalid or extraneous ICC_Profile chunk(s)").

const root = await mkdtemp(join(tmpdir(), 'batchroom-finish-cmyk-'));
afterAll(() => rm(root, { recursive: true, force: true }));

function iccChunks(jpeg: Buffer): number {
  let count = 0;
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at] === 0xff && jpeg[at + 1] !== 0xda; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at + 1] === 0xe2 && jpeg.toString('latin1', at + 4, at + 15) === 'ICC_PROFILE') count += 1;
  }
  return count;
}

describe('finishResult, untagged CMYK result to an sRGB JPEG', () => {
  it.each([null, 300] as const)('DPI %s: one ICC profile, the transform\'s file', async (density) => {
    const raw = Buffer.alloc(120 * 80 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = ((i * 2654435761) >>> 24) & 255;
    const source = join(root, `cmyk-${density}.jpg`);
    await writeFile(source, await sharp(raw, { raw: { width: 120, height: 80, channels: 3 } }).toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer());
    const meta = await sharp(source).metadata();
    expect([meta.space, meta.icc, meta.depth]).toEqual(['cmyk', undefined, 'uchar']);
    const target = join(root, `out-${density}.jpg`);
    await finishResult(source, target, { format: 'jpeg', quality: 92, colour: 'srgb' }, { icc: null, density });
    const written = await readFile(target);
    expect(iccChunks(written)).toBe(1);
    // What the sRGB transform wrote before (the finish's pipeline for such a result up to 2b742ce).
    let before = sharp(source).toColourspace('srgb').autoOrient();
    before = density ? before.withMetadata({ density, icc: 'srgb' }) : before.withIccProfile('srgb');
    expect(written.equals(await before.flatten({ background: '#ffffff' }).jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer())).toBe(true);
  });
});
