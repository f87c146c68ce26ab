import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { heifDeclaredSize } from './heif-size';

// One pixel limit for everything Batchroom decodes from the user's disk — uploads, queue thumbnails, on-screen
// previews — judged from the file's header before any pixel is decoded (a decompression bomb is small on disk and
// huge in memory).

/** 100 MP covers any camera; a 20k×20k PNG that unpacks to gigabytes does not pass. */
export const DEFAULT_MAX_INPUT_PIXELS = 100_000_000;

export const tooLargeMessage = (maxPixels: number): string =>
  `image too large: more than ${Math.round(maxPixels / 1e6)} megapixels (refused to protect memory — possibly a decompression bomb)`;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
/** A HEIF's `meta` box comes before its pixel data in every file seen; a header past this is not looked for. */
const HEIF_HEADER_BYTES = 4 * 1024 * 1024;

export function isHeifHeader(head: Buffer): boolean {
  return head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp' && HEIF_BRANDS.has(head.toString('latin1', 8, 12));
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const size = Math.min(bytes, (await handle.stat()).size);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the file at `path` is a HEIF/HEIC, from its first 12 bytes (never its name). */
export async function isHeifFile(path: string): Promise<boolean> {
  return isHeifHeader(await readHead(path, 12));
}

/**
 * Does the file's header declare more than `maxPixels` (or, for a HEIF, no size at all)? Read from the header
 * only: HEIF boxes here (libvips cannot read HEVC), anything else through libvips' header reader. A file neither
 * can read is not judged here (false): whoever decodes it next refuses it or not by its own limit.
 */
export async function exceedsPixelLimit(path: string, maxPixels = DEFAULT_MAX_INPUT_PIXELS): Promise<boolean> {
  // 12 bytes say whether it is a HEIF; only then are its boxes read (up to 4 MB, never the whole file).
  if (isHeifHeader(await readHead(path, 12))) {
    const size = heifDeclaredSize(await readHead(path, HEIF_HEADER_BYTES));
    return !size || size.width * size.height > maxPixels;
  }
  try {
    const meta = await sharp(path, { limitInputPixels: false }).metadata();
    return (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) > maxPixels;
  } catch {
    return false;
  }
}
