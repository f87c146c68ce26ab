import sharp from 'sharp';
import type { ExifToolCommand } from './capture';
import { DEFAULT_MAX_INPUT_PIXELS, exceedsPixelLimit } from './pixel-limit';
import { extractRawPreview, isRawPath } from './raw-preview';
import { createVersionCache } from './version-cache';

// What a screen can show of an original. A browser cannot draw a camera RAW; the picture the photographer saw on
// the camera — the RAW's largest embedded preview, upright, the same one that is uploaded — is kept as a JPEG in
// the state dir (once per file version) and shown instead: the review's "before" and the queue's thumbnail.

/** Previews shown on screen need no more than this on the long edge (a 45 MP camera embeds 8192 px). */
export const VIEWABLE_EDGE = 2560;

export interface ViewableOriginals {
  /** A file a browser can show for `path`: the path itself, or for a RAW its preview as JPEG; null when there is none. */
  get(path: string): Promise<string | null>;
}

export function createViewableOriginals(dir: string, exiftool: () => ExifToolCommand | null, concurrency = 1): ViewableOriginals {
  const preview = createVersionCache(dir, concurrency, async (path, temp) => {
    const run = exiftool();
    if (!run) return false;
    // A RAW without a usable preview (or a damaged one) throws: nothing to show; the item says why when it runs.
    await sharp(await extractRawPreview(path, run), { failOn: 'error', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS })
      .autoOrient()
      .resize(VIEWABLE_EDGE, VIEWABLE_EDGE, { fit: 'inside', withoutEnlargement: true })
      .keepIccProfile()
      .jpeg({ quality: 88 })
      .toFile(temp);
    return true;
  });
  // Any other photo is shown as it is — by the page, which decodes it: a file whose header declares more than the
  // upload limit (a decompression bomb) is not handed to it at all.
  const shown = async (path: string) => ((await exceedsPixelLimit(path).catch(() => true)) ? null : path);
  return { get: async (path) => (isRawPath(path) ? preview(path) : shown(path)) };
}
