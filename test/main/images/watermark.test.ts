import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Watermark, WatermarkPosition } from '../../../shared/engine/model';
import { finishResult } from '../../../main/core/images/finish-result';
import { clearWatermarkCache, WatermarkUnavailable } from '../../../main/core/images/watermark';
import { patchStrip, PROPHOTO } from './colour-kit';

// Counts the watermark's reads: 1,000 results must not read and hash the logo 1,000 times.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, readFile: vi.fn(actual.readFile) };
});

// A deliverable's watermark, laid by the one finisher over a real result: its pixels change where the position says
// and nowhere else, a logo's own transparency and the opacity are honoured, and a logo that is gone or not the one
// the recipe was saved with stops the deliverable (WatermarkUnavailable) rather than stamping another image.

const W = 600;
const H = 400;
const GREY = 128;
// Margin 2 % of the short edge (8 px); scale 0.2 → a 120 px wide logo, 60 px high for a 2:1 logo.
const MARGIN = 8;

let dir: string;
let result: string;
let plain: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-watermark-'));
  result = join(dir, 'result.png');
  await sharp({ create: { width: W, height: H, channels: 3, background: { r: GREY, g: GREY, b: GREY } } }).png().toFile(result);
  plain = await pixelsOf(await finishTo(undefined));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(() => clearWatermarkCache());

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A 2:1 logo: opaque red (PNG with alpha: its left half fully transparent), or a JPEG with no alpha at all. */
async function logo(kind: 'png-half-transparent' | 'jpeg', name = `${kind}.${kind === 'jpeg' ? 'jpg' : 'png'}`): Promise<{ path: string; sha256: string }> {
  const rgba = Buffer.alloc(200 * 100 * 4);
  for (let i = 0; i < 200 * 100; i++) rgba.set([255, 0, 0, kind === 'jpeg' || i % 200 >= 100 ? 255 : 0], i * 4);
  const image = sharp(rgba, { raw: { width: 200, height: 100, channels: 4 } });
  const bytes = kind === 'jpeg' ? await image.removeAlpha().jpeg({ quality: 100 }).toBuffer() : await image.png().toBuffer();
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, sha256: sha(bytes) };
}

let n = 0;
async function finishTo(watermark: Watermark | undefined): Promise<string> {
  const destination = join(dir, `out-${n++}.png`);
  await finishResult(result, destination, { format: 'png', quality: 92, colour: 'srgb', watermark }, { icc: null, density: null });
  return destination;
}

async function pixelsOf(path: string): Promise<Buffer> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  expect({ width: info.width, height: info.height, channels: info.channels }).toEqual({ width: W, height: H, channels: 3 });
  return data;
}

/** The box of pixels that differ from the result without a watermark, or null when none does. */
function changedBox(pixels: Buffer): { left: number; top: number; right: number; bottom: number } | null {
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = (y * W + x) * 3;
    if (Math.max(...[0, 1, 2].map((c) => Math.abs(pixels[i + c]! - plain[i + c]!))) <= 1) continue;
    box = box ? { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x), bottom: Math.max(box.bottom, y) } : { left: x, top: y, right: x, bottom: y };
  }
  return box;
}

const at = (pixels: Buffer, x: number, y: number) => [...pixels.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)];

describe('the watermark lands where its position says, and nowhere else', () => {
  it('an opaque JPEG logo at bottom-right: a 120×60 red box 8 px from the corner; every other pixel unchanged', async () => {
    const { path, sha256 } = await logo('jpeg');
    const pixels = await pixelsOf(await finishTo({ path, sha256, position: 'bottom-right', scale: 0.2, opacity: 1 }));
    // Lanczos may soften the logo's outermost pixel; the box is exact.
    expect(changedBox(pixels)).toEqual({ left: W - MARGIN - 120, top: H - MARGIN - 60, right: W - MARGIN - 1, bottom: H - MARGIN - 1 });
    const [r, g, b] = at(pixels, W - MARGIN - 60, H - MARGIN - 30);
    expect(r! > 240 && g! < 16 && b! < 16).toBe(true);
  });

  it.each<[WatermarkPosition, number, number]>([
    ['top-left', MARGIN, MARGIN], ['top', (W - 120) / 2, MARGIN], ['top-right', W - MARGIN - 120, MARGIN],
    ['left', MARGIN, (H - 60) / 2], ['centre', (W - 120) / 2, (H - 60) / 2], ['right', W - MARGIN - 120, (H - 60) / 2],
    ['bottom-left', MARGIN, H - MARGIN - 60], ['bottom', (W - 120) / 2, H - MARGIN - 60], ['bottom-right', W - MARGIN - 120, H - MARGIN - 60],
  ])('%s', async (position, left, top) => {
    const { path, sha256 } = await logo('jpeg');
    const box = changedBox(await pixelsOf(await finishTo({ path, sha256, position, scale: 0.2, opacity: 1 })));
    expect(box).toEqual({ left, top, right: left + 119, bottom: top + 59 });
  });

  it('a PNG logo\'s transparent half leaves the photo as it was; its opaque half is red', async () => {
    const { path, sha256 } = await logo('png-half-transparent');
    const pixels = await pixelsOf(await finishTo({ path, sha256, position: 'top-left', scale: 0.2, opacity: 1 }));
    const box = changedBox(pixels)!;
    // Only the right half of the 120 px logo (x 68…127) changed; a pixel or two of filter spill at the seam aside.
    expect(box.left).toBeGreaterThanOrEqual(MARGIN + 58);
    expect({ right: box.right, top: box.top, bottom: box.bottom }).toEqual({ right: MARGIN + 119, top: MARGIN, bottom: MARGIN + 59 });
    expect(at(pixels, MARGIN + 30, MARGIN + 30)).toEqual([GREY, GREY, GREY]);
    expect(at(pixels, MARGIN + 100, MARGIN + 30)[0]).toBeGreaterThan(240);
  });
});

describe('the logo keeps its colours', () => {
  it('over a 16-bit ProPhoto result (libvips would composite it in the result\'s own space): green stays green', async () => {
    const source = join(dir, 'prophoto16.png');
    await writeFile(source, await patchStrip(PROPHOTO, 16));
    expect((await sharp(source).metadata()).depth).toBe('ushort');
    const bytes = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 60, g: 160, b: 80 } } }).png().toBuffer();
    const path = join(dir, 'green.png');
    await writeFile(path, bytes);
    const destination = join(dir, 'prophoto-stamped.png');
    await finishResult(source, destination, { format: 'png', quality: 92, colour: 'srgb', watermark: { path, sha256: sha(bytes), position: 'centre', scale: 0.25, opacity: 1 } }, { icc: null, density: null });
    const { data, info } = await sharp(destination).raw().toBuffer({ resolveWithObject: true });
    const centre = (16 * info.width + 80) * info.channels;
    expect([...data.subarray(centre, centre + 3)].map((v, c) => Math.abs(v - [60, 160, 80][c]!) <= 2)).toEqual([true, true, true]);
  });
});

describe('opacity', () => {
  it('0.5 mixes the logo half into the photo; 0 leaves every byte as without a watermark', async () => {
    const { path, sha256 } = await logo('jpeg');
    const half = await pixelsOf(await finishTo({ path, sha256, position: 'bottom-right', scale: 0.2, opacity: 0.5 }));
    const [r, g, b] = at(half, W - MARGIN - 60, H - MARGIN - 30);
    // Red at 50 % over grey 128: ≈ (191, 64, 64).
    expect([Math.abs(r! - 191) <= 3, Math.abs(g! - 64) <= 3, Math.abs(b! - 64) <= 3]).toEqual([true, true, true]);
    const none = await finishTo({ path, sha256, position: 'bottom-right', scale: 0.2, opacity: 0 });
    expect((await pixelsOf(none)).equals(plain)).toBe(true);
  });
});

describe('a watermark that is not the recipe\'s is never stamped', () => {
  it('a changed file throws WatermarkUnavailable ("changed since the recipe was saved"), even after it was used', async () => {
    const { path, sha256 } = await logo('jpeg', 'changing.jpg');
    const watermark: Watermark = { path, sha256, position: 'bottom-right', scale: 0.2, opacity: 1 };
    await finishTo(watermark);
    await writeFile(path, await sharp({ create: { width: 200, height: 100, channels: 3, background: '#0000ff' } }).jpeg().toBuffer());
    const destination = join(dir, 'never-written.png');
    const failure = finishResult(result, destination, { format: 'png', quality: 92, colour: 'srgb', watermark }, { icc: null, density: null });
    await expect(failure).rejects.toBeInstanceOf(WatermarkUnavailable);
    await expect(failure).rejects.toThrow(`watermark ${path} changed since the recipe was saved`);
    await expect(stat(destination)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a missing file throws WatermarkUnavailable ("cannot be read (ENOENT)")', async () => {
    const path = join(dir, 'gone.png');
    const failure = finishTo({ path, sha256: 'a'.repeat(64), position: 'bottom-right', scale: 0.2, opacity: 0 });
    await expect(failure).rejects.toBeInstanceOf(WatermarkUnavailable);
    await expect(failure).rejects.toThrow(`watermark ${path} cannot be read (ENOENT)`);
  });

  it('a logo used for 50 results is read and hashed once', async () => {
    const { path, sha256 } = await logo('png-half-transparent', 'cached.png');
    const reads = vi.mocked(fsp.readFile);
    reads.mockClear();
    const first = await readFile(await finishTo({ path, sha256, position: 'bottom-right', scale: 0.2, opacity: 0.8 }));
    for (let i = 0; i < 49; i++) {
      const again = await readFile(await finishTo({ path, sha256, position: 'bottom-right', scale: 0.2, opacity: 0.8 }));
      expect(again.equals(first)).toBe(true);
    }
    expect(reads.mock.calls.filter(([p]) => p === path)).toHaveLength(1);
  });
});
