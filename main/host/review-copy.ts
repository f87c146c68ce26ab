import { rename, stat, unlink } from 'node:fs/promises';
import sharp from 'sharp';
import { DEFAULT_MAX_INPUT_PIXELS } from '../core/images/pixel-limit';
import { createViewableOriginals, VIEWABLE_EDGE } from '../core/images/viewable';

// When a batch of photos added in the browser has ended, the full staged copy of each original is no longer needed
// to edit it, only to show it as Review's "before". So it is replaced, in place, by a screen-size WebP of itself
// (upright, colour-managed, transparency kept): a 25 MB camera JPEG becomes a few hundred KB, Review still works,
// and the whole folder goes at the next start (staged-batches.ts). The file keeps its name: the viewable code judges
// files by their bytes and renders one whose name says another type, so it is never served under a wrong type.

/** Replaces `path` by its review copy; resolves with the bytes freed, or null when none could be made (a RAW). */
export type MakeReviewCopy = (path: string) => Promise<number | null>;

export function createReviewCopies(previewDir: string): MakeReviewCopy {
  // No ExifTool here: a RAW has no review copy (its "before" is gone with it).
  const viewable = createViewableOriginals(previewDir, () => null);
  return async (path) => {
    const shown = await viewable.get(path);
    if (!shown) return null;
    const before = (await stat(path)).size;
    const temp = `${path}.review.part`;
    try {
      await sharp(shown, { failOn: 'error', limitInputPixels: DEFAULT_MAX_INPUT_PIXELS })
        .autoOrient()
        .resize(VIEWABLE_EDGE, VIEWABLE_EDGE, { fit: 'inside', withoutEnlargement: true })
        .keepMetadata() // EXIF, XMP, the profile: a rejected photo re-run from it keeps its capture date and camera
        .webp({ quality: 82 })
        .toFile(temp);
      const after = (await stat(temp)).size;
      if (after >= before) return 0; // already small: the original is its own review copy
      await rename(temp, path);
      return before - after;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  };
}
