import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeUploadJpeg, lumaOf, prepareSearch, samplePlan, ssim, SSIM_TARGET, stackTiles, UPLOAD_QUALITIES } from '../../../main/core/images/upload-jpeg';

const W = 256;
const H = 192;
const [LOW, TOP] = [UPLOAD_QUALITIES[0], UPLOAD_QUALITIES[UPLOAD_QUALITIES.length - 1]!];

async function pixels(noiseSigma: number, width = W, height = H): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: noiseSigma } } });
  // Smooth: strong noise blurred away (a sky); faint grain left as it is (what q85 would flatten).
  return (noiseSigma >= 20 ? base.blur(6) : base).raw().toBuffer();
}

/** The search as it was first written: every sample cut out, encoded and decoded on its own. */
async function perSampleSsim(data: Buffer, width: number, height: number, quality: number): Promise<number> {
  const plan = samplePlan(width, height);
  let sum = 0;
  for (const [left, top] of plan.spots) {
    const tile = await sharp(data, { raw: { width, height, channels: 3 } }).extract({ left, top, width: plan.width, height: plan.height }).raw().toBuffer();
    const jpeg = await sharp(tile, { raw: { width: plan.width, height: plan.height, channels: 3 } }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
    const decoded = await sharp(jpeg).raw().toBuffer();
    sum += ssim(lumaOf(tile, 3), lumaOf(decoded, 3), plan.width, plan.height);
  }
  return sum / plan.spots.length;
}

describe('upload JPEG quality per photo', () => {
  it('SSIM is 1 for identical planes and falls as they differ', () => {
    const a = new Uint8Array(64 * 64).map((_, i) => (i * 7) % 256);
    const b = a.map((v, i) => (i % 3 === 0 ? 255 - v : v));
    expect(ssim(a, a, 64, 64)).toBeCloseTo(1, 10);
    expect(ssim(a, b, 64, 64)).toBeLessThan(0.8);
    expect(lumaOf(Buffer.from([255, 255, 255, 0, 0, 0]), 3)).toEqual(new Uint8Array([255, 0]));
  });

  it('a smooth photo goes at the lowest quality that holds SSIM; one it would soften goes higher', async () => {
    const smooth = await encodeUploadJpeg(await pixels(30), W, H, 3);
    expect(smooth.quality).toBe(LOW);
    expect(smooth.ssim).toBeGreaterThanOrEqual(SSIM_TARGET);
    const rough = await encodeUploadJpeg(await pixels(6), W, H, 3);
    expect(rough.quality).toBe(TOP);
    const meta = await sharp(smooth.data).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, icc: Boolean(meta.icc) }).toEqual({ format: 'jpeg', width: W, height: H, icc: true });
  });

  // 320×240: the samples cover most of it, so the photo itself is encoded; 1200×800 and 2000×200 (samples 200 rows
  // high, padded to 208): the samples are stacked. Each must score as the samples encoded one by one did.
  it.each([[320, 240], [1200, 800], [2000, 200]])('at %i×%i the search decides as sample-by-sample encoding did, and sends sharp\'s own bytes', async (width, height) => {
    for (const [sigma, expected] of [[30, LOW], [6, TOP]] as const) {
      const data = await pixels(sigma, width, height);
      const reference = await perSampleSsim(data, width, height, LOW);
      const { ssim: score } = await prepareSearch(data, width, height, 3).score(LOW);
      expect(Math.abs(score - reference)).toBeLessThan(1e-4);
      const result = await encodeUploadJpeg(data, width, height, 3);
      expect(result.quality).toBe(reference >= SSIM_TARGET ? LOW : TOP);
      expect(result.quality).toBe(expected);
      // The profile is attached without a colour conversion; the file is the one withIccProfile('srgb') writes.
      const own = await sharp(data, { raw: { width, height, channels: 3 } }).withIccProfile('srgb').jpeg({ quality: result.quality, chromaSubsampling: '4:2:0' }).toBuffer();
      expect(result.data.equals(own)).toBe(true);
    }
  });

  it.each([
    [250, 130, [[0, 0]]],
    [1000, 17, [[128, 0], [624, 0]]],
    [1000, 700, [[128, 48], [624, 48], [128, 400], [624, 400]]],
  ] as const)('samples of a %i×%i photo sit inside it and stack on 16-row boundaries, padded with their last row', (width, height, spots) => {
    const channels = 3;
    // Every pixel tells where it came from.
    const data = Buffer.alloc(width * height * channels);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.writeUIntBE((y << 12) | x, (y * width + x) * channels, 3);
    const plan = samplePlan(width, height);
    expect(plan.spots).toEqual(spots);
    expect([plan.width, plan.height]).toEqual([Math.min(256, width), Math.min(256, height)]);
    const strip = stackTiles(data, width, channels, plan);
    const pitch = Math.ceil(plan.height / 16) * 16;
    expect(strip.rows).toEqual(spots.map((_, k) => k * pitch));
    expect([strip.width, strip.height]).toEqual([plan.width, pitch * spots.length]);
    plan.spots.forEach(([left, top], k) => {
      for (let y = 0; y < pitch; y++) {
        const row = strip.data.subarray((strip.rows[k]! + y) * plan.width * channels, (strip.rows[k]! + y + 1) * plan.width * channels);
        const source = (top + Math.min(y, plan.height - 1)) * width + left;
        expect(row.equals(data.subarray(source * channels, (source + plan.width) * channels))).toBe(true);
      }
    });
  });
});
