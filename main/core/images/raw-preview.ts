import { basename } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { isRawName } from '../../../shared/media/input-policy';
import type { ExifToolCommand } from './capture';
import { InputImageError } from './errors';

// A camera RAW is sent as the largest JPEG the camera embedded in it: libvips cannot develop sensor data, and the
// embedded preview is what the photographer saw on the camera (white balance, picture style, lens corrections
// applied). It is read with the engine's one ExifTool process, turned by the RAW's own Orientation (previews are
// stored as the sensor saw them and rarely carry their own), and handed to the upload encoder like any JPEG — its ICC
// profile, when it has one, is kept, so colour is converted as for every other photo.

/** Below this long edge a preview is a thumbnail: editing it would give a result worse than the original's. */
export const MIN_RAW_PREVIEW_EDGE = 1024;
export const NO_USABLE_PREVIEW = 'this RAW file has no embedded preview large enough to edit';

/** The tags cameras store their previews under (Canon/Sony/Fuji: PreviewImage, Nikon/Panasonic: JpgFromRaw). */
const PREVIEW_TAGS = ['JpgFromRaw', 'PreviewImage', 'OtherImage'];

export const isRawPath = (path: string): boolean => isRawName(basename(path));

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

interface Candidate { data: Buffer; pixels: number; edge: number; orientation: number | undefined }

async function measure(data: Buffer): Promise<Candidate | null> {
  try {
    const meta = await sharp(data).metadata();
    if (meta.format !== 'jpeg' || !meta.width || !meta.height) return null;
    return { data, pixels: meta.width * meta.height, edge: Math.max(meta.width, meta.height), orientation: meta.orientation };
  } catch {
    return null; // a damaged preview is not a candidate; another may still be usable
  }
}

/**
 * The RAW's largest embedded preview as an image file libvips reads (upright, its ICC profile kept). Throws
 * InputImageError when no preview reaches MIN_RAW_PREVIEW_EDGE — before anything is submitted, so nothing is spent.
 */
export async function extractRawPreview(path: string, exiftool: ExifToolCommand | undefined): Promise<Buffer> {
  if (!exiftool) throw new InputImageError('RAW files need ExifTool, which this run was started without');
  let tags: Record<string, unknown>;
  try {
    // -a -G1: a RAW may hold several previews under the same tag name (one per SubIFD); all are candidates.
    const stdout = await exiftool(['-charset', 'filename=utf8', '-j', '-a', '-G1', '-b', '-n', ...PREVIEW_TAGS.map((t) => `-${t}`), '-Orientation', path]);
    tags = (JSON.parse(stdout) as Record<string, unknown>[])[0] ?? {};
  } catch (error) {
    throw new InputImageError(`this RAW file cannot be read (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`);
  }
  const previews = Object.entries(tags)
    .filter(([key, value]) => PREVIEW_TAGS.includes(key.split(':').pop()!) && typeof value === 'string' && value.startsWith('base64:'))
    .map(([, value]) => Buffer.from((value as string).slice(7), 'base64'));
  const candidates = (await Promise.all(previews.map(measure))).filter((c): c is Candidate => c !== null);
  const best = candidates.reduce<Candidate | null>((a, b) => (a && a.pixels >= b.pixels ? a : b), null);
  if (!best || best.edge < MIN_RAW_PREVIEW_EDGE) throw new InputImageError(NO_USABLE_PREVIEW);
  // IFD0's in TIFF-based RAWs; CR3 and RAF keep it in another group, so any Orientation found stands in.
  const orientationKey = 'IFD0:Orientation' in tags ? 'IFD0:Orientation' : Object.keys(tags).find((k) => k.endsWith(':Orientation'));
  const orientation = orientationKey && typeof tags[orientationKey] === 'number' ? tags[orientationKey] : 1;
  // Already upright and carrying no orientation of its own: the JPEG goes as it is (no decode here).
  if (orientation === 1 && (best.orientation ?? 1) === 1) return best.data;
  // Otherwise the RAW's orientation is applied here (a preview's own tag, if any, is dropped: the RAW's is the truth)
  // into a lossless, uncompressed TIFF that keeps the preview's ICC profile for the encoder's colour conversion.
  return orient(sharp(best.data, { failOn: 'warning' }), orientation).keepIccProfile().tiff({ compression: 'none' }).toBuffer();
}
