import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { ExifToolCommand } from './capture';
import { decodeHeicOffThread } from './heic-off-thread';
import { heifColourOf, pixelsWithProfile } from './heif-colour';
import { heifDeclaredSize } from './heif-size';
import { DEFAULT_MAX_INPUT_PIXELS, exceedsPixelLimit, isHeifFile } from './pixel-limit';
import { extractRawPreview, isRawPath } from './raw-preview';
import { createVersionCache } from './version-cache';

// What a screen can show of a photo (an original or a result): the review's "before" and "after" and the queue's
// thumbnail. A browser (Chromium, Electron's too) draws JPEG, 8-bit PNG, WebP and GIF itself, colour-managed and
// upright, so those are shown as they are. Everything else Batchroom accepts — TIFF, HEIC/HEIF, a camera RAW (its
// largest embedded preview, the one that is uploaded), a 16-bit PNG, AVIF, … — is drawn by no browser or not
// reliably, so a rendition is made instead: upright, converted to sRGB, fitted to the screen, kept in the state dir
// once per file version (a second look reads it from disk), JPEG or — with transparency — WebP.

/** Previews shown on screen need no more than this on the long edge (a 45 MP camera embeds 8192 px). */
export const VIEWABLE_EDGE = 2560;

/**
 * What sharp calls the formats every browser draws as they are (a PNG only at 8 bits, see `drawnAsIs`), with the
 * extensions they are served under: a file whose name says another type (a JPEG named `.tif`, as a staged upload
 * kept for review is) is rendered, not handed out under the wrong Content-Type.
 */
const BROWSER_FORMATS: Record<string, readonly string[]> = { jpeg: ['.jpg', '.jpeg', '.jpe'], png: ['.png'], webp: ['.webp'], gif: ['.gif'] };

export interface ViewableOriginals {
  /** A file a browser can show for `path`: the path itself, or a rendition of it; null when there is none. */
  get(path: string): Promise<string | null>;
}


/** Upright, sRGB (through the file's profile when it has one), screen-sized: what every rendition goes through. */
async function forScreen(image: Sharp): Promise<Sharp> {
  const meta = await image.metadata();
  const fitted = image.autoOrient().resize(VIEWABLE_EDGE, VIEWABLE_EDGE, { fit: 'inside', withoutEnlargement: true });
  return meta.icc ? fitted.withIccProfile('srgb') : fitted.toColourspace('srgb');
}

/** As for uploads (encode.ts): a HEIC larger than this on disk is not read into memory. */
const MAX_HEIC_BYTES = 150 * 1024 * 1024;

/**
 * A HEIC's pixels, decoded in a worker thread (heic-off-thread.ts: on this thread a 12 MP photo held the event loop
 * for 3.2 s), refused from its boxes before the decoder allocates anything (heif-size.ts), with the colour profile
 * the decoder drops given back (heif-colour.ts).
 */
async function openHeic(path: string): Promise<Sharp> {
  if ((await stat(path)).size > MAX_HEIC_BYTES) throw new Error('HEIC file too large to decode');
  const file = await readFile(path);
  const declared = heifDeclaredSize(file);
  if (!declared || declared.width * declared.height > DEFAULT_MAX_INPUT_PIXELS) throw new Error('HEIC refused from its header');
  const decoded = await decodeHeicOffThread(file);
  if (decoded.width * decoded.height > DEFAULT_MAX_INPUT_PIXELS) throw new Error('HEIC larger than its header said');
  const tagged = await pixelsWithProfile(decoded.data, decoded.width, decoded.height, heifColourOf(file));
  return tagged ? sharp(tagged) : sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
}

type Kind = 'as-is' | 'opaque' | 'alpha' | 'none';

/**
 * How `path` is shown, judged from its header (never its name: a `.jpg` that is a TIFF inside is rendered). A file
 * whose header declares more than the upload limit (a decompression bomb) gets nothing, before anything is decoded;
 * so does one libvips cannot read at all.
 */
async function kindOf(path: string): Promise<Kind> {
  if (await exceedsPixelLimit(path).catch(() => true)) return 'none';
  if (await isHeifFile(path)) return 'opaque';
  const meta = await sharp(path, { limitInputPixels: false }).metadata().catch(() => null);
  if (!meta?.format) return 'none';
  const named = BROWSER_FORMATS[meta.format]?.includes(extname(path).toLowerCase()) ?? false;
  const drawnAsIs = named && !(meta.format === 'png' && meta.depth !== 'uchar');
  if (drawnAsIs) return 'as-is';
  return meta.hasAlpha ? 'alpha' : 'opaque';
}

export function createViewableOriginals(dir: string, exiftool: () => ExifToolCommand | null, concurrency = 1): ViewableOriginals {
  const rawPreview = createVersionCache(dir, concurrency, async (path, temp) => {
    const run = exiftool();
    if (!run) return false;
    // A RAW without a usable preview (or a damaged one) throws: nothing to show; the item says why when it runs.
    const image = sharp(await extractRawPreview(path, run), { failOn: 'error', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS });
    await (await forScreen(image)).jpeg({ quality: 88 }).toFile(temp);
    return true;
  });
  const open = async (path: string): Promise<Sharp> => {
    if (await isHeifFile(path)) return openHeic(path);
    return sharp(path, { failOn: 'error', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS });
  };
  // A HEIC always decodes with an alpha channel, unused on every camera file: flattened, like the upload.
  const opaque = createVersionCache(dir, concurrency, async (path, temp) => {
    await (await forScreen(await open(path))).flatten({ background: '#ffffff' }).jpeg({ quality: 88 }).toFile(temp);
    return true;
  });
  const alpha = createVersionCache(dir, concurrency, async (path, temp) => {
    await (await forScreen(await open(path))).webp({ quality: 85, alphaQuality: 90 }).toFile(temp);
    return true;
  }, 'webp');

  return {
    async get(path) {
      if (isRawPath(path)) return rawPreview(path);
      const kind = await kindOf(path).catch((): Kind => 'none');
      if (kind === 'as-is') return path;
      if (kind === 'opaque') return opaque(path);
      if (kind === 'alpha') return alpha(path);
      return null;
    },
  };
}
