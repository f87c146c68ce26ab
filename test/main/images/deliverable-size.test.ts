import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverableSize } from '../../../shared/engine/model';
import { deliverableFrame } from '../../../main/core/images/deliverable-size';
import { finishResult } from '../../../main/core/images/finish-result';
import { wideGamutOf } from '../../../main/core/images/icc';
import { DISPLAY_P3, matrixProfile, patchStrip, PROPHOTO, SRGB, worstDeltaE } from './colour-kit';

// A deliverable's size, made by the one finisher from a real result file: each fit's dimensions (what the file
// holds and what the finisher returns, which the metadata is written with), never larger than the paid result, the
// result turned upright first, and the colour guarantees (profile, policy `source`, 16-bit sources) kept through
// the resize.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-deliverable-size-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let n = 0;
async function result(width: number, height: number, make?: (s: Sharp) => Sharp): Promise<string> {
  const path = join(dir, `result-${n++}.part`);
  const base = sharp({ create: { width, height, channels: 3, background: { r: 90, g: 120, b: 150 } } });
  await (make ? make(base) : base.jpeg()).toFile(path);
  return path;
}

async function finish(source: string, size: DeliverableSize, format: 'jpeg' | 'png' | 'tiff' | 'webp' = 'jpeg', colour: 'srgb' | 'source' = 'srgb', icc: Buffer | null = null) {
  const destination = join(dir, `out-${n++}.${format}`);
  const finished = await finishResult(source, destination, { format, quality: 92, colour, size }, { icc, density: 300 });
  const meta = await sharp(destination).metadata();
  return { finished, meta, destination };
}

describe('each fit gives the deliverable its size', () => {
  const cases: [string, number, number, DeliverableSize, number, number][] = [
    ['landscape, long edge', 600, 400, { fit: 'long-edge', longEdge: 300 }, 300, 200],
    ['portrait, long edge', 400, 600, { fit: 'long-edge', longEdge: 300 }, 200, 300],
    ['landscape, contain in a square', 600, 400, { fit: 'contain', width: 240, height: 240 }, 240, 160],
    ['portrait, contain in a wide box', 400, 600, { fit: 'contain', width: 500, height: 150 }, 100, 150],
    ['landscape, cover a square', 600, 400, { fit: 'cover', width: 200, height: 200 }, 200, 200],
    ['portrait, cover a wide box', 400, 600, { fit: 'cover', width: 300, height: 100 }, 300, 100],
  ];
  it.each(cases)('%s', async (_name, w, h, size, width, height) => {
    const { finished, meta } = await finish(await result(w, h), size);
    expect({ width: meta.width, height: meta.height }).toEqual({ width, height });
    expect({ width: finished.width, height: finished.height }).toEqual({ width, height });
    expect(Math.round(meta.density ?? 0)).toBe(300);
  });

  it('cover crops the centre: the middle third of a red | green | blue result', async () => {
    const thirds = Buffer.alloc(900 * 300 * 3);
    for (let i = 0; i < 900 * 300; i++) thirds[i * 3 + Math.floor((i % 900) / 300)] = 255;
    const source = join(dir, 'thirds.png');
    await sharp(thirds, { raw: { width: 900, height: 300, channels: 3 } }).png().toFile(source);
    const { destination } = await finish(source, { fit: 'cover', width: 150, height: 150 }, 'png');
    const { data, info } = await sharp(destination).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(150);
    // Green across (a few pixels of the kernel's reach at the cut edges aside): neither red nor blue third is in.
    for (const x of [4, 75, 145]) {
      const [r, g, b] = data.subarray((75 * 150 + x) * 3, (75 * 150 + x) * 3 + 3);
      expect({ x, green: g! > 240, other: Math.max(r!, b!) < 16 }).toEqual({ x, green: true, other: true });
    }
  });

  it('a result with an EXIF orientation is turned upright before it is sized', async () => {
    // Stored 600×400 with its top half red; Orientation 6 shows it turned a quarter clockwise: 400×600, red on the right.
    const halves = Buffer.alloc(600 * 400 * 3);
    for (let i = 0; i < 600 * 400; i++) halves[i * 3 + (i < 600 * 200 ? 0 : 2)] = 255;
    const source = join(dir, 'turned.jpg');
    await sharp(halves, { raw: { width: 600, height: 400, channels: 3 } }).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toFile(source);
    expect((await sharp(source).metadata()).orientation).toBe(6);
    const { finished, destination } = await finish(source, { fit: 'long-edge', longEdge: 300 }, 'png');
    expect({ width: finished.width, height: finished.height }).toEqual({ width: 200, height: 300 });
    const { data } = await sharp(destination).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    expect(at(180, 150)[0]).toBeGreaterThan(200); // right: red
    expect(at(20, 150)[2]).toBeGreaterThan(200); // left: blue
  });
});

describe('never larger than the paid result', () => {
  it.each<[string, DeliverableSize, DeliverableSize]>([
    ['a long edge beyond the result', { fit: 'long-edge', longEdge: 4000 }, { fit: 'long-edge', longEdge: 599 }],
    ['a contain box larger both ways', { fit: 'contain', width: 2000, height: 2000 }, { fit: 'contain', width: 599, height: 2000 }],
  ])('%s keeps the result\'s size (one pixel under it scales)', async (_name, larger, under) => {
    const source = await result(600, 400);
    const kept = await finish(source, larger, 'webp');
    expect({ width: kept.meta.width, height: kept.meta.height, fw: kept.finished.width, fh: kept.finished.height }).toEqual({ width: 600, height: 400, fw: 600, fh: 400 });
    const scaled = await finish(source, under, 'webp');
    expect({ width: scaled.meta.width, height: scaled.meta.height }).toEqual({ width: 599, height: 399 });
  });

  it('a cover the result cannot fill is cropped to its shape at the size the result has, not enlarged', async () => {
    const { finished, meta } = await finish(await result(800, 600), { fit: 'cover', width: 1080, height: 1080 });
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 600, height: 600 });
    expect({ width: finished.width, height: finished.height }).toEqual({ width: 600, height: 600 });
    expect(deliverableFrame(1000, 800, { fit: 'cover', width: 2000, height: 500 })).toEqual({ width: 1000, height: 250, fit: 'cover' });
  });
});

describe('colour survives the resize', () => {
  it('a 16-bit ProPhoto TIFF result: sized in its own precision, saved with its colours (ΔE ≤ 1) and an sRGB profile', async () => {
    // The finisher writes 8-bit files (docs/photo-pipeline.md); what matters is that the 16-bit data is converted
    // through its profile, not taken as sRGB, when it is also resized. (keepIccProfile alone makes an 8-bit TIFF:
    // rgb16 keeps the fixture 16-bit.)
    const source = join(dir, 'prophoto16.tif');
    await sharp(await patchStrip(PROPHOTO, 16)).keepIccProfile().toColourspace('rgb16').tiff({ compression: 'lzw' }).toFile(source);
    expect((await sharp(source).metadata()).depth).toBe('ushort');
    expect(await worstDeltaE(source)).toBeLessThan(0.75);
    const { finished, meta, destination } = await finish(source, { fit: 'long-edge', longEdge: 120 }, 'tiff');
    expect({ width: finished.width, height: finished.height, format: meta.format, icc: Boolean(meta.icc) }).toEqual({ width: 120, height: 24, format: 'tiff', icc: true });
    expect(await worstDeltaE(destination)).toBeLessThanOrEqual(1.0);
  });

  it('colour policy "source" with a Display P3 original: the resized deliverable is P3, same colours', async () => {
    const source = join(dir, 'srgb-result.png');
    await writeFile(source, await patchStrip(SRGB, 8));
    const { finished, meta, destination } = await finish(source, { fit: 'contain', width: 120, height: 120 }, 'jpeg', 'source', matrixProfile(DISPLAY_P3));
    expect({ width: finished.width, height: finished.height, profile: finished.profile }).toEqual({ width: 120, height: 24, profile: 'p3' });
    expect(wideGamutOf(meta.icc)).toBe('p3');
    expect(await worstDeltaE(destination)).toBeLessThanOrEqual(1.0);
  });

  it('a result with transparency keeps its alpha through the resize (PNG)', async () => {
    const source = await result(400, 200, (s) => s.ensureAlpha(0.5).png());
    const { finished, meta } = await finish(source, { fit: 'long-edge', longEdge: 100 }, 'png');
    expect({ width: finished.width, height: finished.height, channels: meta.channels }).toEqual({ width: 100, height: 50, channels: 4 });
  });
});
