// 24 MP camera-like JPEGs for the scale benches, made once and kept under /tmp/batchroom-scale-fixtures (making one
// takes seconds): a pool of files p000.jpg, p001.jpg, …, extended on demand, so a run at any BENCH_SCALE reuses what
// an earlier one made. BENCH_FIXTURE_ROOT puts the pool elsewhere, and BENCH_PHOTO_SIZE=WxH makes smaller photos: the
// bench's test uses both (its own folder, removed after; photos small enough to make in its time).
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export const FIXTURE_ROOT_DEFAULT = '/tmp/batchroom-scale-fixtures';
export const CAMERA_SIZE = { width: 6000, height: 4000 };
/** The grain tile's side: a prime, so its repeats never line up with JPEG's 8/16 px blocks. */
const TILE = 509;

export function fixtureRoot(): string {
  return process.env.BENCH_FIXTURE_ROOT ?? FIXTURE_ROOT_DEFAULT;
}

/** The photos' size: 6000×4000 unless BENCH_PHOTO_SIZE says otherwise (both multiples of 16). */
export function photoSize(): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(process.env.BENCH_PHOTO_SIZE ?? '');
  if (!match) return CAMERA_SIZE;
  const [width, height] = [Number(match[1]), Number(match[2])];
  if (width % 16 !== 0 || height % 16 !== 0 || width < 64 || height < 64) throw new Error(`BENCH_PHOTO_SIZE: both sides multiples of 16, at least 64 (${process.env.BENCH_PHOTO_SIZE})`);
  return { width, height };
}

/**
 * Distinct photo-like pixels: smooth random structure (noise at 1/16 size, upscaled) with a gradient of its own, plus
 * sensor-like grain — JPEG sizes (≈ 7 MB at q90) and decode costs as a camera's, never two photos alike.
 */
async function cameraLike(n: number, grain: Buffer, { width, height }: { width: number; height: number }): Promise<Buffer> {
  const gw = width / 16;
  const gh = height / 16;
  const small = await sharp({ create: { width: gw, height: gh, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .raw().toBuffer();
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const p = (y * gw + x) * 3;
      small[p] = Math.min(255, Math.max(0, small[p]! + ((x * (n + 1) * 7) % 80) - 40));
      small[p + 2] = Math.min(255, Math.max(0, small[p + 2]! + ((y * (n + 3)) % 60) - 30));
    }
  }
  const pixels = await sharp(small, { raw: { width: gw, height: gh, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
  const rowBytes = width * 3;
  for (let y = 0; y < height; y++) {
    const g = (y % TILE) * TILE * 3;
    const row = y * rowBytes;
    for (let x = 0; x < rowBytes; x++) {
      const v = pixels[row + x]! + grain[g + (x % (TILE * 3))]! - 128;
      pixels[row + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/** `count` distinct camera JPEGs (the pool's first `count`); `made` says how many this call had to make. */
export async function cameraPhotos(count: number, log: (line: string) => void = () => {}): Promise<{ files: string[]; made: number }> {
  const size = photoSize();
  const dir = join(fixtureRoot(), size === CAMERA_SIZE ? 'camera-24mp' : `camera-${size.width}x${size.height}`);
  await mkdir(dir, { recursive: true });
  const present = new Set(await readdir(dir));
  const files: string[] = [];
  let made = 0;
  let grain: Buffer | null = null;
  for (let i = 0; i < count; i++) {
    const name = `p${String(i).padStart(3, '0')}.jpg`;
    const path = join(dir, name);
    files.push(path);
    if (present.has(name)) continue;
    grain ??= await sharp({ create: { width: TILE, height: TILE, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 8 } } })
      .raw().toBuffer();
    // Written aside and renamed: a run stopped half-way never leaves a truncated photo in the pool.
    await writeFile(`${path}.part`, await cameraLike(i, grain, size));
    await rename(`${path}.part`, path);
    made += 1;
    if (made % 10 === 0) log(`  fixtures: made ${made} of ${count - present.size} missing photos in ${dir}`);
  }
  return { files, made };
}
