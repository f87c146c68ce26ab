import type { Sharp } from 'sharp';
import { loadSharp, sharpLoaded } from './sharp-loader';

// Workflows work on decoded RGBA rasters. sharp applies the operations of ONE pipeline in its own fixed order
// (resize, then blur/sharpen, then colour operations, then composite), so a workflow whose steps fit that order runs
// as a single pipeline (one pass, no intermediate buffers); a step that must come out of order gets its own pipeline.
// Every pipeline runs on libuv's thread pool; the event loop only awaits.

export interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

export function pipeline(raster: Raster): Sharp {
  return sharpLoaded()(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
}

/** Runs a pipeline to an RGBA raster (alpha added when the operation dropped or never had it). */
export async function toRaster(image: Sharp): Promise<Raster> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) {
    // greyscale-like results come back with fewer channels: expand to sRGB RGBA so later steps see one layout.
    const sharp = await loadSharp();
    const expanded = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: expanded.data, width: expanded.info.width, height: expanded.info.height };
  }
  return { data, width: info.width, height: info.height };
}

/** A raster of one colour, e.g. a background; `rgba` alpha is 0..255. */
export function solidRaster(width: number, height: number, rgba: [number, number, number, number]): Raster {
  // Buffer#fill with a pattern runs natively: no per-pixel JavaScript loop on the event loop.
  return { data: Buffer.alloc(width * height * 4).fill(Buffer.from(rgba)), width, height };
}

export type OutputFormat = 'jpeg' | 'png';

export interface EncodedResult {
  data: Buffer;
  format: OutputFormat;
  width: number;
  height: number;
}

/** Runs a pipeline whose output is width × height to the result file; JPEG flattens alpha onto `background`. */
export async function encodePipeline(image: Sharp, format: OutputFormat, width: number, height: number, background = '#ffffff'): Promise<EncodedResult> {
  const data =
    format === 'png'
      ? await image.png({ compressionLevel: 6 }).toBuffer()
      : await image.flatten({ background }).jpeg({ quality: 88, mozjpeg: false }).toBuffer();
  return { data, format, width, height };
}

export function encode(raster: Raster, format: OutputFormat, background = '#ffffff'): Promise<EncodedResult> {
  return encodePipeline(pipeline(raster), format, raster.width, raster.height, background);
}

export function mimeOf(format: OutputFormat): string {
  return format === 'png' ? 'image/png' : 'image/jpeg';
}
