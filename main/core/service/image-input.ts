import { readFile } from 'node:fs/promises';
import { ServiceError } from './errors';

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif', 'mif2']);

/** ISO-BMFF (`....ftyp<major><minor><compatible…>`): AVIF, HEIC and generic HEIF share the container. */
function sniffIsoBmff(bytes: Uint8Array): string | null {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== 'ftyp') return null;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  if (brands.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
  if (brands.some((b) => HEIF_BRANDS.has(b))) return 'image/heif';
  return null;
}

/**
 * The image type from the file's first bytes, never from its name: a `.jpg` that is really a PNG is sent as PNG, and
 * a text file renamed `.jpg` is refused before it costs anything.
 */
export function sniffImageMime(bytes: Uint8Array): string | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG' && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'image/png';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0x00) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && b[3] === 0x2a))) {
    return 'image/tiff';
  }
  return sniffIsoBmff(b);
}

/** A base64 data URL with the sniffed type; refuses bytes that are not a recognised image. */
export function toDataUrl(bytes: Uint8Array): string {
  const mime = sniffImageMime(bytes);
  if (!mime) {
    throw new ServiceError('unsupported_media', 'This file is not an image Batchroom can send (JPEG, PNG, WebP, GIF, TIFF, AVIF or HEIC).');
  }
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** `http(s)` URLs pass through (the service downloads them itself); anything else is a local file read into a data URL. */
export async function toImageInput(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source) || /^data:[\w.+-]+\/[\w.+-]+;base64,/i.test(source)) return source;
  const path = source.startsWith('file://') ? new URL(source) : source;
  return toDataUrl(await readFile(path));
}
