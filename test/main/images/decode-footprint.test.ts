import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFootprint, jpegShrinkOnLoad, readJpegFrame } from '../../../main/core/images/decode-footprint';

// What an upload encode decodes at once (issue 34, item 6): the frame size from the JPEG's header, the
// shrink-on-load factor sharp chooses, and the photo's weight in the encoder's budget.

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-footprint-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** A JPEG whose frame header comes after a large EXIF block (with a thumbnail-sized comment) and an ICC profile. */
async function cameraJpeg(name: string, width: number, height: number): Promise<string> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: '#6080a0' } })
    .withIccProfile('p3').withExif({ IFD0: { Make: 'Bench', Model: 'X'.repeat(30_000) } }).jpeg().toBuffer();
  const path = join(dir, name);
  await writeFile(path, jpeg);
  return path;
}

describe('readJpegFrame', () => {
  it('reads the size past the EXIF and ICC segments, and says null for what is not a JPEG', async () => {
    expect(readJpegFrame(await cameraJpeg('cam.jpg', 1200, 800))).toEqual({ width: 1200, height: 800, components: 3, sequential: true });
    const png = join(dir, 'p.png');
    await writeFile(png, await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer());
    expect(readJpegFrame(png)).toBeNull();
    const truncated = join(dir, 'cut.jpg');
    await writeFile(truncated, Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40]));
    expect(readJpegFrame(truncated)).toBeNull();
    expect(readJpegFrame(join(dir, 'missing.jpg'))).toBeNull();
  });
});

describe('jpegShrinkOnLoad', () => {
  it("picks sharp's factor (sharp/src/pipeline.cc: largest of 8, 4, 2 within the shrink, one less when exact)", () => {
    expect(jpegShrinkOnLoad(6000, 4000, 1024)).toBe(4);
    expect(jpegShrinkOnLoad(6000, 4000, 2048)).toBe(1); // 2.93: 2, exactly 2 once truncated — decoded whole
    expect(jpegShrinkOnLoad(6000, 4000, 1900)).toBe(2); // 3.16
    expect(jpegShrinkOnLoad(8192, 4096, 1024)).toBe(4); // exactly 8: one step less (libjpeg's rounding)
    expect(jpegShrinkOnLoad(2048, 1536, 1024)).toBe(1); // exactly 2: one step less
    expect(jpegShrinkOnLoad(1000, 800, 1024)).toBe(1);
  });
});

describe('decodeFootprint', () => {
  it('a JPEG fitted to a much smaller edge weighs its bytes over the shrunk area; sent whole, or not a JPEG, its bytes', async () => {
    const path = await cameraJpeg('big.jpg', 6000, 4000);
    expect(decodeFootprint(path, 8_000_000, 1024)).toBe(500_000);
    expect(decodeFootprint(path, 8_000_000, 1900)).toBe(2_000_000);
    expect(decodeFootprint(path, 8_000_000, 2048)).toBe(8_000_000);
    expect(decodeFootprint(path, 8_000_000, null)).toBe(8_000_000);
    const png = join(dir, 'big.png');
    await writeFile(png, await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer());
    expect(decodeFootprint(png, 8_000_000, 1024)).toBe(8_000_000);
  });

  it('a progressive JPEG weighs its whole file: libjpeg keeps every coefficient of the full-size image', async () => {
    // Measured (review of issue 34): sharp fitting 6000×4000 to 1024 grew RSS by 95 MB for a progressive JPEG and by
    // 24 MB for the same photo as a baseline one; counted at 1/16, several progressive decodes ran side by side.
    const path = join(dir, 'progressive.jpg');
    await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#808080' } }).jpeg({ progressive: true }).toFile(path);
    expect(readJpegFrame(path)).toMatchObject({ width: 6000, height: 4000, sequential: false });
    expect(decodeFootprint(path, 8_000_000, 1024)).toBe(8_000_000);
  });
});
