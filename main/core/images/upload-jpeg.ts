import sharp from 'sharp';

// The upload JPEG's quality, chosen per photo: the lowest of a short ladder whose result still matches the pixels
// it encodes (SSIM of the luma, 8×8 windows, ≥ SSIM_TARGET). On 24 MP camera JPEGs sent for a 2K result, q85 keeps
// SSIM ≈ 0.988 at 0.097 of the original's bytes where q90 sent 0.117 (measured by bench/engine.ts); a photo that
// q85 would soften (fine texture, noise) goes at q92. mozjpeg was 20× slower for a further 10%: not worth a batch.

export const UPLOAD_QUALITIES = [85, 92] as const;
export const SSIM_TARGET = 0.985;
/** Above this many pixels (an 'original'-size upload) one encode at the top quality, no search. */
const SEARCH_MAX_PIXELS = 8_500_000;

export interface UploadJpeg {
  data: Buffer;
  quality: number;
  /** The SSIM the chosen quality reached (null when no search ran). */
  ssim: number | null;
}

/** BT.601 luma of interleaved 8-bit pixels (3 or 4 channels). */
export function lumaOf(pixels: Buffer, channels: number): Uint8Array {
  const out = new Uint8Array(pixels.length / channels);
  for (let i = 0, p = 0; i < out.length; i++, p += channels) out[i] = (pixels[p]! * 299 + pixels[p + 1]! * 587 + pixels[p + 2]! * 114 + 500) / 1000;
  return out;
}

/** Mean SSIM over non-overlapping 8×8 windows of two same-size 8-bit luma planes. */
export function ssim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= height; y += 8) {
    for (let x = 0; x + 8 <= width; x += 8) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let j = 0; j < 8; j++) {
        const row = (y + j) * width + x;
        for (let i = 0; i < 8; i++) {
          const va = a[row + i]!;
          const vb = b[row + i]!;
          sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
        }
      }
      const ma = sa / 64, mb = sb / 64;
      const va = (saa - 64 * ma * ma) / 63, vb = (sbb - 64 * mb * mb) / 63, cov = (sab - 64 * ma * mb) / 63;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      windows++;
    }
  }
  return windows === 0 ? 1 : sum / windows;
}

const TILE = 256;

/** Up to four TILE×TILE samples of the image (aligned to JPEG's 16 px blocks), copied out of the raw pixels. */
function sampleTiles(pixels: Buffer, width: number, height: number, channels: number): { data: Buffer; width: number; height: number }[] {
  const tw = Math.min(TILE, width);
  const th = Math.min(TILE, height);
  const spots = [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].map(([fx, fy]) => [
    Math.min(width - tw, Math.max(0, Math.round((fx! * width - tw / 2) / 16) * 16)),
    Math.min(height - th, Math.max(0, Math.round((fy! * height - th / 2) / 16) * 16)),
  ] as const);
  const unique = [...new Map(spots.map((s) => [`${s[0]},${s[1]}`, s])).values()];
  return unique.map(([left, top]) => {
    const data = Buffer.alloc(tw * th * channels);
    for (let y = 0; y < th; y++) pixels.copy(data, y * tw * channels, ((top + y) * width + left) * channels, ((top + y) * width + left + tw) * channels);
    return { data, width: tw, height: th };
  });
}

/** Mean SSIM of the samples encoded at `quality` (each tile encoded on its own: JPEG's blocks are local). */
async function sampledSsim(tiles: ReturnType<typeof sampleTiles>, channels: 3 | 4, quality: number): Promise<number> {
  let sum = 0;
  for (const tile of tiles) {
    const jpeg = await sharp(tile.data, { raw: { width: tile.width, height: tile.height, channels } }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
    const decoded = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    sum += ssim(lumaOf(tile.data, channels), lumaOf(decoded.data, decoded.info.channels), tile.width, tile.height);
  }
  return sum / tiles.length;
}

/**
 * Encodes upright, sRGB, already-resized pixels as the upload JPEG, with the sRGB profile attached. The quality is
 * chosen on four 256 px samples (≈ 10 ms), not by encoding the whole photo at each step: a full-size search cost a
 * 24 MP photo +50 % encode time, which at C = 8 on two cores would make the encoder, not the service, the bound.
 */
export async function encodeUploadJpeg(pixels: Buffer, width: number, height: number, channels: 3 | 4): Promise<UploadJpeg> {
  const encode = (quality: number) => sharp(pixels, { raw: { width, height, channels } })
    .withIccProfile('srgb')
    .jpeg({ quality, chromaSubsampling: '4:2:0' })
    .toBuffer();
  const top = UPLOAD_QUALITIES[UPLOAD_QUALITIES.length - 1]!;
  if (width * height > SEARCH_MAX_PIXELS) return { data: await encode(top), quality: top, ssim: null };
  const tiles = sampleTiles(pixels, width, height, channels);
  for (const quality of UPLOAD_QUALITIES) {
    const score = await sampledSsim(tiles, channels, quality);
    if (score >= SSIM_TARGET || quality === top) return { data: await encode(quality), quality, ssim: score };
  }
  return { data: await encode(top), quality: top, ssim: null };
}
