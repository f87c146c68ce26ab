import sharp from 'sharp';
import { DEFAULT_MAX_INPUT_PIXELS, exceedsPixelLimit } from './pixel-limit';
import { createVersionCache } from './version-cache';

// Small pictures for the queue: made once per file version, kept in the state dir, two at a time so a 10,000-row
// queue scrolled quickly never competes with the batch for the CPU. A file sharp cannot read (a damaged photo) has
// no thumbnail; the row shows its name alone. A RAW, a HEIC, a TIFF … get here as their renditions (viewable.ts).

export const THUMBNAIL_EDGE = 96;

export interface ThumbnailCache {
  /** The thumbnail of `path` (made now if needed), or null when the file is not a picture sharp can read. */
  get(path: string): Promise<string | null>;
}

export function createThumbnailCache(dir: string, concurrency = 2): ThumbnailCache {
  const get = createVersionCache(dir, concurrency, async (path, temp) => {
    // A bomb gets no thumbnail, refused from its header (the limit uploads have, not a looser one).
    if (await exceedsPixelLimit(path)) return false;
    await sharp(path, { failOn: 'error', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS })
      .autoOrient()
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
      // JPEG has no transparency: a cut-out is shown on white (sharp's own default is black).
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 70 })
      .toFile(temp);
    return true;
  });
  return { get };
}
