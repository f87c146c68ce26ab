// Identifies an image format from its first bytes. The declared type (data-URL mime, Content-Type header) is never
// trusted on its own: a PNG labelled image/jpeg is refused, an HTML page labelled image/png too.

export type SniffedType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/gif'
  | 'image/webp'
  | 'image/tiff'
  | 'image/avif'
  | 'image/heic'
  | 'image/bmp';

/** Formats the sandbox decodes (sharp without HEVC: HEIC is recognised but refused). */
export const SUPPORTED_TYPES: ReadonlySet<SniffedType> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/tiff', 'image/avif']);

const ascii = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));

export function sniffImageType(bytes: Uint8Array): SniffedType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 1, 4) === 'PNG' && bytes[0] === 0x89 && bytes[4] === 0x0d && bytes[5] === 0x0a) return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 4 && (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*')) return 'image/tiff';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  if (bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'image/bmp';
  return undefined;
}

/** Normalises declared mime types and their common aliases for comparison with the sniffed type. */
export function canonicalMime(declared: string): string {
  const mime = declared.trim().toLowerCase();
  const aliases: Record<string, string> = {
    'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'image/x-png': 'image/png', 'image/tif': 'image/tiff',
    'image/heif': 'image/heic', 'image/x-ms-bmp': 'image/bmp',
  };
  return aliases[mime] ?? mime;
}
