import { readFile, stat } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import type { UploadSizePolicy } from '../../../shared/engine/model';
import { DEFAULT_IMAGE_SIZE, IMAGE_SIZE_LONG_EDGE, type ImageSize } from '../../../shared/service/model';
import { describeImageError, InputImageError } from './errors';
import { heifColourOf, pixelsWithProfile } from './heif-colour';
import { heifDeclaredSize } from './heif-size';
import { DEFAULT_MAX_INPUT_PIXELS, isHeifFile, tooLargeMessage } from './pixel-limit';
import { encodeUploadJpeg } from './upload-jpeg';
import type { ExifToolCommand } from './capture';
import { extractRawPreview, isRawPath } from './raw-preview';

// Prepares one local photo for upload: decoded (HEIC through WASM, everything else through libvips), turned upright,
// stripped of metadata unless asked otherwise, shrunk to what the requested output size can use, re-encoded.

/** Long edge of the service's output per size; the sandbox (and service) default is 1K. */
// One definition in shared/ (the app says "Default = 1,024 px" from the same constants).
export const OUTPUT_LONG_EDGE: Readonly<Record<ImageSize, number>> = IMAGE_SIZE_LONG_EDGE;
export const DEFAULT_OUTPUT_SIZE: ImageSize = DEFAULT_IMAGE_SIZE;
export { DEFAULT_MAX_INPUT_PIXELS };
const MAX_HEIC_BYTES = 150 * 1024 * 1024;

// libvips' operation cache keeps decoded images around for reuse that a batch never makes; without it peak memory
// tracks the few images in flight rather than the history.
sharp.cache(false);
// One libvips worker thread per operation: the engine already overlaps encodes across photos, and every extra thread
// that allocates gets its own malloc arena holding freed pixel buffers (≈ 30 MB of RSS each on a 12 MP photo).
sharp.concurrency(1);

export interface EncodeOptions {
  policy: UploadSizePolicy;
  imageSize?: ImageSize;
  stripMetadata: boolean;
  maxInputPixels?: number;
  /** The engine's shared ExifTool: a camera RAW is sent as its largest embedded preview, read through it. */
  exiftool?: ExifToolCommand;
}

export interface EncodedImage {
  mime: 'image/jpeg' | 'image/png';
  data: Buffer;
  width: number;
  height: number;
  /** Size of the file as it is on disk. */
  originalBytes: number;
}


/**
 * The HEIC decoder (libheif compiled to WASM) is loaded on the first HEIC photo, not with the engine: instantiated,
 * it holds ≈ 20 MB of RSS in every process that imports it, and most batches never meet a HEIC.
 */
let heicDecoder: Promise<typeof import('heic-decode')> | null = null;
function loadHeicDecoder(): Promise<typeof import('heic-decode')> {
  heicDecoder ??= import('heic-decode').then((module) => module.default);
  return heicDecoder;
}

async function openHeic(path: string, size: number, maxPixels: number): Promise<Sharp> {
  if (size > MAX_HEIC_BYTES) throw new InputImageError('HEIC file too large to decode');
  let decoded;
  const file = await readFile(path);
  // Refused from the header, before the decoder allocates the canvas (heif-size.ts), as libvips does for PNG and JPEG.
  const declared = heifDeclaredSize(file);
  if (!declared) throw new InputImageError('HEIC/HEIF file is corrupt (its header declares no image size)');
  if (declared.width * declared.height > maxPixels) throw new InputImageError(tooLargeMessage(maxPixels));
  const decodeHeic = await loadHeicDecoder();
  try {
    decoded = await decodeHeic({ buffer: file });
  } catch (error) {
    throw new InputImageError(`HEIC/HEIF file is corrupt or uses an unsupported variant (${error instanceof Error ? error.message : String(error)})`);
  }
  // The decoder's own answer is checked too: it must not be larger than the header said.
  if (decoded.width * decoded.height > maxPixels) throw new InputImageError(tooLargeMessage(maxPixels));
  const raw = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
  // The decoder drops the photo's colour space (an iPhone's Display P3): it is read from the file and given back.
  const tagged = await pixelsWithProfile(raw, decoded.width, decoded.height, heifColourOf(file));
  return tagged ? sharp(tagged) : sharp(raw, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
}

export async function encodeForUpload(path: string, options: EncodeOptions): Promise<EncodedImage> {
  const maxPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputImageError('not a regular file');
    if (info.size === 0) throw new InputImageError('empty file (0 bytes)');
    const heif = await isHeifFile(path);
    const image = heif
      ? await openHeic(path, info.size, maxPixels)
      // failOn 'warning' refuses truncated files instead of uploading half a grey picture.
      : sharp(isRawPath(path) ? await extractRawPreview(path, options.exiftool) : path, { limitInputPixels: maxPixels, failOn: 'warning', sequentialRead: true });
    const meta = await image.metadata();
    const hasAlpha = heif ? true : Boolean(meta.hasAlpha);
    let pipeline = image.autoOrient();
    if (options.policy === 'fit') {
      const edge = OUTPUT_LONG_EDGE[options.imageSize ?? DEFAULT_OUTPUT_SIZE];
      pipeline = pipeline.resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' });
    }
    if (!options.stripMetadata && !heif) pipeline = pipeline.keepMetadata();
    // CMYK, 16-bit and greyscale inputs all leave as 8-bit sRGB, which every service decodes the same way. A photo
    // with a profile is converted through it (and carries sRGB's): libvips maps 16-bit data correctly only that way
    // (a 16-bit sRGB TIFF's red moved ΔE ≈ 20 with toColourspace alone); an untagged one is sRGB already.
    const tagged = Boolean(meta.icc);
    pipeline = tagged ? pipeline.withIccProfile('srgb') : pipeline.toColourspace('srgb');
    const opaque = heif ? await isOpaque(pipeline.clone()) : !hasAlpha;
    if (opaque && options.stripMetadata) {
      // Quality per photo (upload-jpeg.ts): the pixels once, then the lowest quality that still matches them.
      const { data, info: px } = await pipeline.flatten().raw().toBuffer({ resolveWithObject: true });
      if (px.channels === 3 || px.channels === 4) {
        const jpeg = await encodeUploadJpeg(data, px.width, px.height, px.channels);
        return { mime: 'image/jpeg', data: jpeg.data, width: px.width, height: px.height, originalBytes: info.size };
      }
    }
    const out = opaque
      ? await pipeline.flatten().jpeg({ quality: 90, mozjpeg: false, chromaSubsampling: '4:2:0' }).toBuffer({ resolveWithObject: true })
      : await pipeline.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
    return {
      mime: opaque ? 'image/jpeg' : 'image/png',
      data: out.data,
      width: out.info.width,
      height: out.info.height,
      originalBytes: info.size,
    };
  } catch (error) {
    throw new InputImageError(describeImageError(error, Math.round(maxPixels / 1e6)), { cause: error });
  }
}

/** HEIC always decodes to RGBA; only keep an alpha channel that is actually used. */
async function isOpaque(image: Sharp): Promise<boolean> {
  const stats = await image.stats();
  return stats.isOpaque;
}

export function toDataUrl(encoded: Pick<EncodedImage, 'mime' | 'data'>): string {
  return `data:${encoded.mime};base64,${encoded.data.toString('base64')}`;
}
