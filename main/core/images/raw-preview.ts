import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { isRawName } from '../../../shared/media/input-policy';
import type { ExifToolCommand } from './capture';
import { InputImageError } from './errors';
import { DEFAULT_MAX_INPUT_PIXELS, tooLargeMessage } from './pixel-limit';

// A camera RAW is sent as the largest JPEG the camera embedded in it: libvips cannot develop sensor data, and the
// embedded preview is what the photographer saw on the camera (white balance, picture style, lens corrections
// applied). It is read with the engine's one ExifTool process, turned by the RAW's own Orientation (previews are
// stored as the sensor saw them and rarely carry their own), and handed to the upload encoder like any JPEG — its ICC
// profile, when it has one, is kept, so colour is converted as for every other photo.

/** Below this long edge a preview is a thumbnail: editing it would give a result worse than the original's. */
export const MIN_RAW_PREVIEW_EDGE = 1024;
export const NO_USABLE_PREVIEW = 'this RAW file has no embedded preview large enough to edit';
export const UNREADABLE_RAW = 'this RAW file cannot be read (truncated or damaged)';

/** The tags cameras store their previews under (Canon/Sony/Fuji: PreviewImage, Nikon/Panasonic: JpgFromRaw). */
export const PREVIEW_TAGS = ['JpgFromRaw', 'PreviewImage', 'OtherImage'];

export const isRawPath = (path: string): boolean => isRawName(basename(path));

/** The reason for a RAW ExifTool could not open at all. */
const cannotRead = (error: unknown): string => `this RAW file cannot be read (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`;

/** EXIF orientation → the sharp operations that make the pixels upright (checked against libvips' autoOrient). */
function orient(image: Sharp, orientation: number): Sharp {
  switch (orientation) {
    case 2: return image.flop();
    case 3: return image.rotate(180);
    case 4: return image.flip();
    case 5: return image.rotate(270).flop();
    case 6: return image.rotate(90);
    case 7: return image.rotate(90).flop();
    case 8: return image.rotate(270);
    default: return image;
  }
}

/** A preview's size: what decides whether the RAW is sent (the largest by pixels) or refused. */
export interface PreviewSize { pixels: number; edge: number }

interface Candidate extends PreviewSize { data: Buffer; orientation: number | undefined }

export async function measure(data: Buffer): Promise<Candidate | null> {
  try {
    const meta = await sharp(data).metadata();
    if (meta.format !== 'jpeg' || !meta.width || !meta.height) return null;
    return { data, pixels: meta.width * meta.height, edge: Math.max(meta.width, meta.height), orientation: meta.orientation };
  } catch {
    return null; // a damaged preview is not a candidate; another may still be usable
  }
}

/**
 * The RAW's orientation from `-a -G1 -n -Orientation`: IFD0's; without one (a RAW keeping it elsewhere, e.g. in an
 * embedded JPEG's EXIF), the first outside a SubIFD, since SubIFDs describe the sensor data or a preview, not the
 * photo; then any; else 1.
 */
export function rawOrientation(tags: Record<string, unknown>): number {
  const found = Object.entries(tags).filter(([key, v]) => /(^|:)Orientation$/.test(key) && typeof v === 'number' && v >= 1 && v <= 8);
  const pick = found.find(([key]) => key === 'IFD0:Orientation') ?? found.find(([key]) => !/^SubIFD\d*:/.test(key)) ?? found[0];
  return pick ? (pick[1] as number) : 1;
}

/**
 * Whether ExifTool could not read the RAW's bytes: an Error, or a warning (never a `[minor]` one) that a value or
 * block is missing or cut short. Other warnings (a MakerNote it does not know) say nothing about the previews.
 */
export function unreadable(tags: Record<string, unknown>): boolean {
  return Object.entries(tags).some(([key, v]) => typeof v === 'string' && (/(^|:)Error$/.test(key)
    || (/(^|:)Warning$/.test(key) && !v.startsWith('[minor] ') && /error reading|truncated/i.test(v))));
}

export const largestPreview = <T extends PreviewSize>(candidates: readonly T[]): T | null =>
  candidates.reduce<T | null>((a, b) => (a && a.pixels >= b.pixels ? a : b), null);

/**
 * Why a RAW whose largest preview is `best` is refused — before anything is submitted, so nothing is spent — or null.
 * The one rule for the encoder and the planner (raw-check.ts), which must refuse exactly what the encoder will.
 */
export function previewRefusal(best: PreviewSize | null, tags: Record<string, unknown>): string | null {
  // A truncated RAW has its previews' offsets but not their bytes ("Error reading JpgFromRaw from file"): that is a
  // file that cannot be read, not a camera that embedded only a thumbnail.
  if (!best || best.edge < MIN_RAW_PREVIEW_EDGE) return unreadable(tags) ? UNREADABLE_RAW : NO_USABLE_PREVIEW;
  // Measured from the preview's header: one declaring more than the upload limit is never decoded, here or later.
  if (best.pixels > DEFAULT_MAX_INPUT_PIXELS) return tooLargeMessage(DEFAULT_MAX_INPUT_PIXELS);
  return null;
}

/** Every preview of the RAW (-a: a RAW may hold several under one name, one per SubIFD), as ExifTool extracts it. */
export async function extractPreviews(path: string, exiftool: ExifToolCommand): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'batchroom-raw-'));
  try {
    // Written by ExifTool straight to a file: a 17 MB preview took 5.3 s to encode as base64 JSON through the
    // process's text output, 0.6 s this way.
    await exiftool(['-charset', 'filename=utf8', '-a', '-G1', '-b', ...PREVIEW_TAGS.map((t) => `-${t}`), '-W', join(dir, '%g1-%t%-c.bin'), path]);
    return await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The RAW's largest embedded preview as an image file libvips reads (upright, its ICC profile kept). Throws
 * InputImageError when no preview reaches MIN_RAW_PREVIEW_EDGE — before anything is submitted, so nothing is spent.
 */
export async function extractRawPreview(path: string, exiftool: ExifToolCommand | undefined): Promise<Buffer> {
  if (!exiftool) throw new InputImageError('RAW files need ExifTool, which this run was started without');
  let tags: Record<string, unknown>;
  let previews: Buffer[];
  try {
    // Every Orientation with its IFD (-a -G1): ExifTool's own pick prefers a full-resolution SubIFD's, and D70 NEFs and
    // A330 ARWs store 1 there while IFD0 (what the camera and every viewer go by) says 6. The preview tags are named
    // (not extracted: no -b) so that ExifTool says when their bytes are missing ("Error reading JpgFromRaw").
    tags = (JSON.parse(await exiftool(['-charset', 'filename=utf8', '-j', '-n', '-a', '-G1', '-Orientation', '-Warning', '-Error', ...PREVIEW_TAGS.map((t) => `-${t}`), path])) as Record<string, unknown>[])[0] ?? {};
    previews = await extractPreviews(path, exiftool);
  } catch (error) {
    throw new InputImageError(cannotRead(error));
  }
  const best = largestPreview((await Promise.all(previews.map(measure))).filter((c): c is Candidate => c !== null));
  const refusal = previewRefusal(best, tags);
  if (refusal !== null || !best) throw new InputImageError(refusal ?? NO_USABLE_PREVIEW);
  const orientation = rawOrientation(tags);
  // Already upright and carrying no orientation of its own: the JPEG goes as it is (no decode here).
  if (orientation === 1 && (best.orientation ?? 1) === 1) return best.data;
  // Otherwise the RAW's orientation becomes the preview's only EXIF (the encoder turns every photo upright; libvips
  // reads the first EXIF segment, so the preview's own is removed): no decode here. A 17 MB preview turned this way costs what an upright one does; decoding and turning it
  // into a lossless TIFF cost 2.6× a plain JPEG. A JPEG whose segments cannot be walked is turned by decoding.
  return withOrientation(best.data, orientation)
    ?? orient(sharp(best.data, { failOn: 'warning', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS }), orientation).keepIccProfile().tiff({ compression: 'none' }).toBuffer();
}

/**
 * The JPEG with its own EXIF segments (a preview's, describing the preview) replaced by one holding only
 * `orientation`, after its other APPn segments. Null when the JPEG's header segments cannot be walked.
 */
export function withOrientation(jpeg: Buffer, orientation: number): Buffer | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const kept: Buffer[] = [jpeg.subarray(0, 2)];
  let at = 2;
  // APP0–APP15 and COM come before the tables and the frame; the new segment goes after the last of them.
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff && ((jpeg[at + 1]! >= 0xe0 && jpeg[at + 1]! <= 0xef) || jpeg[at + 1] === 0xfe)) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    const exif = jpeg[at + 1] === 0xe1 && jpeg.toString('latin1', at + 4, at + 10) === 'Exif\0\0';
    if (!exif) kept.push(jpeg.subarray(at, end));
    at = end;
  }
  if (at + 2 > jpeg.length || jpeg[at] !== 0xff) return null;
  const tiff = Buffer.alloc(26);
  tiff.write('MM\0*', 0, 'latin1');
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + 6 + tiff.length, 2);
  return Buffer.concat([...kept, header, Buffer.from('Exif\0\0', 'latin1'), tiff, jpeg.subarray(at)]);
}
