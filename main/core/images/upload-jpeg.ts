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
  /** The samples' SSIM at the chosen quality; null for the top quality, which is taken without measuring it. */
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
/** JPEG's MCU at 4:2:0: a 16×16 luma area and the chroma sampled from it. */
const MCU = 16;
/** At or above this share of the photo in the samples, the photo itself is encoded for the search (see below). */
const WHOLE_PHOTO_SHARE = 0.5;

export interface SamplePlan {
  /** Size of every sample. */
  width: number;
  height: number;
  /** Top-left corner of each sample in the photo, no two the same. */
  spots: readonly (readonly [number, number])[];
}

/** Up to four TILE×TILE samples around the photo's quarter points, on JPEG's 16 px grid where the edges allow. */
export function samplePlan(width: number, height: number): SamplePlan {
  const tw = Math.min(TILE, width);
  const th = Math.min(TILE, height);
  const spots = [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].map(([fx, fy]) => [
    Math.min(width - tw, Math.max(0, Math.round((fx! * width - tw / 2) / 16) * 16)),
    Math.min(height - th, Math.max(0, Math.round((fy! * height - th / 2) / 16) * 16)),
  ] as const);
  return { width: tw, height: th, spots: [...new Map(spots.map((s) => [`${s[0]},${s[1]}`, s])).values()] };
}

export interface TileStrip {
  data: Buffer;
  width: number;
  height: number;
  /** First row of each sample in the strip (a multiple of 16), in the plan's order. */
  rows: number[];
}

/**
 * The samples stacked into one raw image, so each quality is one encode and one decode rather than one per sample.
 * Each starts on an MCU row and is padded down to the next with copies of its last row — what the encoder does at a
 * lone sample's bottom edge — so no block holds pixels of two samples and each encodes as it would on its own.
 */
export function stackTiles(pixels: Buffer, width: number, channels: number, plan: SamplePlan): TileStrip {
  const pitch = Math.ceil(plan.height / MCU) * MCU;
  const rowBytes = plan.width * channels;
  const data = Buffer.alloc(pitch * plan.spots.length * rowBytes);
  const rows = plan.spots.map(([left, top], k) => {
    for (let y = 0; y < pitch; y++) {
      const from = ((top + Math.min(y, plan.height - 1)) * width + left) * channels;
      pixels.copy(data, (k * pitch + y) * rowBytes, from, from + rowBytes);
    }
    return k * pitch;
  });
  return { data, width: plan.width, height: pitch * plan.spots.length, rows };
}

/** Luma of a w×h region of interleaved pixels whose rows are `stride` pixels long. */
function regionLuma(pixels: Buffer, stride: number, channels: number, left: number, top: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0, p = ((top + y) * stride + left) * channels; x < w; x++, i++, p += channels) {
      out[i] = (pixels[p]! * 299 + pixels[p + 1]! * 587 + pixels[p + 2]! * 114 + 500) / 1000;
    }
  }
  return out;
}

export interface QualitySearch {
  /** Mean SSIM of the samples encoded at `quality`; `photo` is the whole photo's upload JPEG when that was encoded. */
  score(quality: number): Promise<{ ssim: number; photo: Buffer | null }>;
}

/**
 * The samples' luma is read once. When they cover at least half the photo (a small one), each step encodes the
 * photo itself, as the upload, and scores the samples' regions of it — JPEG's blocks are local, so those match the
 * lone samples' — and a step that passes is the result, with no second encode. Otherwise the samples are encoded
 * stacked (stackTiles).
 */
export function prepareSearch(pixels: Buffer, width: number, height: number, channels: 3 | 4): QualitySearch {
  const plan = samplePlan(width, height);
  const originals = plan.spots.map(([left, top]) => regionLuma(pixels, width, channels, left, top, plan.width, plan.height));
  const whole = plan.spots.length * plan.width * plan.height >= WHOLE_PHOTO_SHARE * width * height;
  const strip = whole ? null : stackTiles(pixels, width, channels, plan);
  const where = strip ? strip.rows.map((row) => [0, row] as const) : plan.spots;
  return {
    async score(quality) {
      const photo = strip ? null : await encodeRaw(pixels, width, height, channels, quality, true);
      const jpeg = photo ?? await encodeRaw(strip!.data, strip!.width, strip!.height, channels, quality, false);
      // ignoreIcc: the photo carries sRGB's profile, and converting sRGB to sRGB on the way in costs time for nothing.
      const decoded = await sharp(jpeg, { ignoreIcc: true }).raw().toBuffer({ resolveWithObject: true });
      let sum = 0;
      where.forEach(([left, top], k) => {
        const luma = regionLuma(decoded.data, decoded.info.width, decoded.info.channels, left, top, plan.width, plan.height);
        sum += ssim(originals[k]!, luma, plan.width, plan.height);
      });
      return { ssim: sum / where.length, photo };
    },
  };
}

async function encodeRaw(pixels: Buffer, width: number, height: number, channels: 3 | 4, quality: number, srgb: boolean): Promise<Buffer> {
  const segment = srgb ? srgbProfileSegment() : null;
  const jpeg = await sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
  return segment ? withSegment(jpeg, await segment) : jpeg;
}

/**
 * The APP2 segment that carries libvips' sRGB profile, exactly as withIccProfile('srgb') writes it, read once from a
 * tiny encode. The upload's pixels are sRGB already, and withIccProfile would run them through an sRGB → sRGB
 * conversion (an identity on all 2²⁴ colours, yet a third of a 1K encode's time) only to attach the profile.
 */
let srgbSegment: Promise<Buffer> | null = null;
function srgbProfileSegment(): Promise<Buffer> {
  srgbSegment ??= sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).withIccProfile('srgb').jpeg().toBuffer()
    .then((jpeg) => {
      const segments = jpegSegments(jpeg).filter((s) => s.marker === 0xe2 && jpeg.toString('latin1', s.start + 4, s.start + 15) === 'ICC_PROFILE');
      if (segments.length === 0) throw new Error('libvips wrote no ICC profile for sRGB');
      return Buffer.concat(segments.map((s) => jpeg.subarray(s.start, s.end)));
    });
  srgbSegment.catch(() => { srgbSegment = null; });
  return srgbSegment;
}

/**
 * A JPEG of sRGB pixels given sRGB's profile without a colour transform: the same bytes withIccProfile('srgb') would
 * attach, and the same pixels (its sRGB → sRGB transform is an identity), for a third less of a 1K encode's time.
 */
export async function withSrgbProfile(jpeg: Buffer): Promise<Buffer> {
  return withSegment(jpeg, await srgbProfileSegment());
}

/** The marker segments before the first scan: [start, end) of each, marker included. */
function jpegSegments(jpeg: Buffer): { marker: number; start: number; end: number }[] {
  const out: { marker: number; start: number; end: number }[] = [];
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at] === 0xff && jpeg[at + 1] !== 0xda; ) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    out.push({ marker: jpeg[at + 1]!, start: at, end });
    at = end;
  }
  return out;
}

/** The JPEG with `segment` inserted where libvips puts a profile: after the start marker, JFIF, EXIF/XMP and IPTC. */
function withSegment(jpeg: Buffer, segment: Buffer): Buffer {
  let at = 2;
  for (const s of jpegSegments(jpeg)) {
    if (s.start !== at || (s.marker !== 0xe0 && s.marker !== 0xe1 && s.marker !== 0xed)) break;
    at = s.end;
  }
  return Buffer.concat([jpeg.subarray(0, at), segment, jpeg.subarray(at)]);
}

/**
 * Encodes upright, sRGB, already-resized pixels as the upload JPEG, with the sRGB profile attached. The quality is
 * chosen on four 256 px samples, not by encoding the whole photo at each step: a full-size search cost a 24 MP
 * photo +50 % encode time, which at C = 8 on two cores would make the encoder, not the service, the bound. The top
 * quality is taken when every lower one fell short, without measuring it.
 */
export async function encodeUploadJpeg(pixels: Buffer, width: number, height: number, channels: 3 | 4): Promise<UploadJpeg> {
  const top = UPLOAD_QUALITIES[UPLOAD_QUALITIES.length - 1]!;
  const final = (quality: number) => encodeRaw(pixels, width, height, channels, quality, true);
  if (width * height > SEARCH_MAX_PIXELS) return { data: await final(top), quality: top, ssim: null };
  const search = prepareSearch(pixels, width, height, channels);
  for (const quality of UPLOAD_QUALITIES.slice(0, -1)) {
    const { ssim: score, photo } = await search.score(quality);
    if (score >= SSIM_TARGET) return { data: photo ?? await final(quality), quality, ssim: score };
  }
  return { data: await final(top), quality: top, ssim: null };
}
