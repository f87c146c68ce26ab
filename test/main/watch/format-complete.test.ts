import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provablyComplete } from '../../../main/core/watch/format-complete';
import { removeDir, tempDir } from './fakes';

// A hot folder takes a JPEG/PNG early only when its structure proves the last byte is there: every cut-off copy
// must read as not proven, including the cuts that end on an FF D9 that is not the image's own end.

let root: string;
beforeEach(async () => {
  root = await tempDir('br-format-complete-');
});
afterEach(async () => {
  await removeDir(root);
});

let n = 0;
async function proven(bytes: Buffer): Promise<boolean> {
  const path = join(root, `f${n++}.bin`);
  await writeFile(path, bytes);
  return provablyComplete(path);
}

async function photo(progressive = false, size = 96): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 90, progressive }).toBuffer();
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** The photo with an APP1 holding an embedded thumbnail (its own SOI…EOI), as camera EXIF does. */
async function withThumbnail(): Promise<{ bytes: Buffer; thumbnailEnd: number }> {
  const thumbnail = await photo(false, 16);
  const app1 = segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0'), thumbnail]));
  const main = await photo();
  const bytes = Buffer.concat([main.subarray(0, 2), app1, main.subarray(2)]);
  return { bytes, thumbnailEnd: 2 + 4 + 6 + thumbnail.length };
}

/** A primary JPEG whose APP2 MP Index says a second image follows its EOI (MPF, as cameras store large previews). */
async function withMpf(): Promise<{ bytes: Buffer; primaryLength: number }> {
  const primary = await photo();
  const second = await photo(false, 48);
  const app2Length = 4 + 4 + 26 + 32;
  const tiffStart = 2 + 4 + 4;
  const primaryLength = primary.length + app2Length;
  const mp = Buffer.alloc(26 + 32);
  mp.write('II*\0', 0, 'latin1');
  mp.writeUInt32LE(8, 4);
  mp.writeUInt16LE(1, 8);
  mp.writeUInt16LE(0xb002, 10);
  mp.writeUInt16LE(7, 12);
  mp.writeUInt32LE(32, 14);
  mp.writeUInt32LE(26, 18);
  mp.writeUInt32LE(primaryLength, 26 + 4);
  mp.writeUInt32LE(0, 26 + 8);
  mp.writeUInt32LE(second.length, 26 + 16 + 4);
  mp.writeUInt32LE(primaryLength - tiffStart, 26 + 16 + 8);
  const app2 = segment(0xe2, Buffer.concat([Buffer.from('MPF\0'), mp]));
  expect(app2.length).toBe(app2Length);
  return { bytes: Buffer.concat([primary.subarray(0, 2), app2, primary.subarray(2), second]), primaryLength };
}

describe('provablyComplete', () => {
  it('proves a whole JPEG, baseline or progressive, and no copy of it cut anywhere', async () => {
    for (const progressive of [false, true]) {
      const full = await photo(progressive);
      expect(await proven(full)).toBe(true);
      const cuts = [...Array.from({ length: 40 }, (_, i) => Math.floor((full.length * (i + 1)) / 41)), full.length - 1, full.length - 2];
      for (const cut of cuts) expect(await proven(full.subarray(0, cut)), `${progressive ? 'progressive' : 'baseline'} cut at ${cut}`).toBe(false);
    }
  });

  it('does not mistake an embedded thumbnail’s end marker for the photo’s', async () => {
    const { bytes, thumbnailEnd } = await withThumbnail();
    expect(await proven(bytes)).toBe(true);
    expect(bytes.readUInt16BE(thumbnailEnd - 2)).toBe(0xffd9);
    expect(await proven(bytes.subarray(0, thumbnailEnd))).toBe(false);
    expect(await proven(bytes.subarray(0, thumbnailEnd + 300))).toBe(false);
  });

  it('waits for the images an MPF index says follow the primary one', async () => {
    const { bytes, primaryLength } = await withMpf();
    expect(await proven(bytes)).toBe(true);
    expect(await proven(bytes.subarray(0, primaryLength))).toBe(false);
    expect(await proven(bytes.subarray(0, bytes.length - 1))).toBe(false);
  });

  it('accepts padding after EOI but not data it does not understand', async () => {
    const full = await photo();
    expect(await proven(Buffer.concat([full, Buffer.alloc(64)]))).toBe(true);
    expect(await proven(Buffer.concat([full, Buffer.from('trailer of some phone app')]))).toBe(false);
    const xmp = segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta GCamera:MicroVideo="1"/>', 'latin1'));
    expect(await proven(Buffer.concat([full.subarray(0, 2), xmp, full.subarray(2)]))).toBe(false);
  });

  it('proves a PNG by its IEND chunk; other formats are never proven', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#804020' } }).png().toBuffer();
    expect(await proven(png)).toBe(true);
    expect(await proven(png.subarray(0, png.length - 1))).toBe(false);
    expect(await proven(png.subarray(0, png.length - 12))).toBe(false);
    const webp = await sharp(png).webp().toBuffer();
    expect(await proven(webp)).toBe(false);
    expect(await provablyComplete(join(root, 'missing.jpg'))).toBe(false);
  });
});
