import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { ColourPolicy, DeliverableSize, Watermark } from '../../../shared/engine/model';
import type { ResultFormat } from '../../../shared/naming';
import { deliverableFrame, resizeTo, uprightSize } from './deliverable-size';
import { wideGamutOf, type WideGamut } from './icc';
import { outputFs } from './output-fs';
import { writeTemp } from './save';
import { withSrgbProfile } from './upload-jpeg';
import { watermarkOverlay } from './watermark';

// The step between "the service's bytes decode" and "metadata is written": the result becomes a file the
// photographer can file like their own export — in the output format they chose, at their JPEG quality, with an
// embedded ICC profile (sRGB, or the original's wide profile under colour policy `source`) and the original's DPI.
// Whatever the service returned (PNG without a profile, a 16-bit TIFF, a JPEG in some other space) is converted here,
// so the name the estimate promised (its extension) is the file written. One paid result makes each of a recipe's
// deliverables through here: its size (deliverable-size.ts: never enlarged) and watermark (watermark.ts) included.

export interface OriginalLook {
  /** The original's embedded ICC profile, when it has one. */
  icc: Buffer | null;
  /** Pixels per inch, when the original says. */
  density: number | null;
}

export interface FinishOptions {
  format: ResultFormat;
  quality: number;
  colour: ColourPolicy;
  /** The deliverable's size; absent or `original`: the result's. Never larger than the result (deliverable-size.ts). */
  size?: DeliverableSize;
  /** Laid over the sized deliverable. Its file gone or changed: WatermarkUnavailable (watermark.ts), nothing written. */
  watermark?: Watermark;
}

export interface FinishedResult {
  format: ResultFormat;
  /** The file's real pixel size: the deliverable's, after its size and upright turn. */
  width: number;
  height: number;
  /** The profile the result carries: 'srgb' or the wide space it was converted back into. */
  profile: 'srgb' | WideGamut;
}

/** What the finishing step needs of the original: read from its header only (no pixels decoded). */
export async function readOriginalLook(path: string | null): Promise<OriginalLook> {
  if (!path) return { icc: null, density: null };
  try {
    const meta = await sharp(path).metadata();
    return { icc: meta.icc ?? null, density: meta.density && meta.density > 0 ? meta.density : null };
  } catch {
    // RAW, HEIC or a file gone meanwhile: sRGB and no DPI; the result is still saved.
    return { icc: null, density: null };
  }
}

/**
 * Writes the verified result `source` as `target`: turned upright, converted to sRGB from whatever profile the service
 * used (an untagged result is taken as sRGB), brought to the deliverable's size, watermarked, then converted to the
 * target profile and encoded in the output format. `destination` may be `source` itself (rewritten in place through
 * `<destination>.finish` and an atomic rename, so the journalled temp path stays valid); otherwise it is created. The
 * encoded bytes are written by Node, not by libvips, so a full or read-only disk fails with its errno (ENOSPC,
 * EROFS…) — and whatever failed, no `.finish` file or partial target is left behind. A watermark whose file is gone or
 * changed throws WatermarkUnavailable before the result is decoded.
 */
export async function finishResult(source: string, destination: string, options: FinishOptions, original: OriginalLook): Promise<FinishedResult> {
  const input = sharp(source, { failOn: 'warning', limitInputPixels: 200_000_000 });
  const meta = await input.metadata();
  const wide = options.colour === 'source' ? wideGamutOf(original.icc) : null;
  // The frame is known from the header alone, so the watermark is verified and scaled before any pixel is decoded.
  const upright = uprightSize(meta);
  const frame = deliverableFrame(upright.width, upright.height, options.size);
  const overlay = options.watermark ? await watermarkOverlay(options.watermark, frame?.width ?? upright.width, frame?.height ?? upright.height) : null;
  let iccFile: string | null = null;
  try {
    // libvips converts a 16-bit image correctly only through its profile; an untagged one is treated as sRGB.
    let pipeline: Sharp = (meta.icc ? input.withIccProfile('srgb') : input.toColourspace('srgb')).autoOrient();
    if (frame) pipeline = resizeTo(pipeline, frame);
    let target = 'srgb';
    if (wide && original.icc) {
      iccFile = join(tmpdir(), `batchroom-${randomBytes(6).toString('hex')}.icc`);
      await writeFile(iccFile, original.icc);
      target = iccFile;
    }
    if (target !== 'srgb' || overlay) {
      // A second pass over the sized pixels, now 8-bit sRGB with the profile embedded: from there into the original's
      // space, and the watermark composited in sRGB (libvips composites a 16-bit or wide-gamut image in its own
      // space, which would shift the logo's colours).
      pipeline = sharp(await pipeline.png({ compressionLevel: 0 }).toBuffer());
      if (overlay) pipeline = pipeline.composite([overlay]);
      // Compositing adds an alpha channel; a result without one keeps none.
      if (overlay && !meta.hasAlpha) pipeline = pipeline.removeAlpha();
    }
    // An untagged 8-bit result is sRGB already (as taken above): libvips would still run its pixels through an
    // sRGB → sRGB transform (an identity, a third of a 1K JPEG's finishing time) only to attach the profile, so a
    // JPEG gets the very same profile bytes attached after encoding instead (upload-jpeg.ts withSrgbProfile).
    // Not for CMYK: libvips converts it to sRGB on reading and that leaves sRGB's profile on the image (kept with a
    // DPI), so a second inserted copy would make two "1 of 1" ICC chunks: an invalid profile.
    const attachSrgb = options.format === 'jpeg' && target === 'srgb' && !overlay && !meta.icc && meta.depth === 'uchar' && meta.space !== 'cmyk';
    if (attachSrgb) {
      // keepMetadata is what withMetadata does besides the profile: the result's own tags stay, as before.
      if (original.density) pipeline = pipeline.keepMetadata().withDensity(original.density);
    } else {
      // withMetadata sets the profile to sRGB itself, so the target profile is given through it when there is a DPI.
      pipeline = original.density ? pipeline.withMetadata({ density: original.density, icc: target }) : pipeline.withIccProfile(target);
    }
    pipeline = encodeAs(pipeline, options);
    const encoded = await pipeline.toBuffer({ resolveWithObject: true });
    const { info } = encoded;
    const data = attachSrgb ? await withSrgbProfile(encoded.data) : encoded.data;
    if (destination !== source) {
      await writeTemp(destination, [data]);
    } else {
      const next = `${destination}.finish`;
      await writeTemp(next, [data]);
      await outputFs.rename(next, destination).catch(async (error: unknown) => {
        await outputFs.unlink(next).catch(() => undefined);
        throw error;
      });
    }
    return { format: options.format, width: info.width, height: info.height, profile: wide && original.icc ? wide : 'srgb' };
  } finally {
    if (iccFile) await unlink(iccFile).catch(() => undefined);
  }
}

function encodeAs(pipeline: Sharp, options: FinishOptions): Sharp {
  switch (options.format) {
    case 'jpeg':
      // Flattened on white: a JPEG has no alpha, and a transparent corner must not turn black.
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: options.quality, chromaSubsampling: options.quality >= 90 ? '4:4:4' : '4:2:0' });
    case 'png':
      return pipeline.png({ compressionLevel: 6 });
    case 'tiff':
      return pipeline.tiff({ compression: 'lzw', predictor: 'horizontal' });
    case 'webp':
      return pipeline.webp({ quality: options.quality });
  }
}
