import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeUploadJpeg, lumaOf, ssim, SSIM_TARGET, UPLOAD_QUALITIES } from '../../../main/core/images/upload-jpeg';

const W = 256;
const H = 192;

async function pixels(noiseSigma: number): Promise<Buffer> {
  const base = sharp({ create: { width: W, height: H, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: noiseSigma } } });
  // Smooth: strong noise blurred away (a sky); faint grain left as it is (what q85 would flatten).
  return (noiseSigma >= 20 ? base.blur(6) : base).raw().toBuffer();
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
    expect(smooth.quality).toBe(UPLOAD_QUALITIES[0]);
    expect(smooth.ssim).toBeGreaterThanOrEqual(SSIM_TARGET);
    const rough = await encodeUploadJpeg(await pixels(6), W, H, 3);
    expect(rough.quality).toBe(UPLOAD_QUALITIES[UPLOAD_QUALITIES.length - 1]);
    const meta = await sharp(smooth.data).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, icc: Boolean(meta.icc) }).toEqual({ format: 'jpeg', width: W, height: H, icc: true });
  });
});
