import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { ExifToolCommand } from './capture';
import { extractRawPreview, isRawPath } from './raw-preview';

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
  const limit = pLimit(concurrency);
  const pending = new Map<string, Promise<string | null>>();

  const make = async (path: string, target: string): Promise<string | null> => {
    const run = exiftool();
    if (!run) return null;
    const temp = `${target}.${randomBytes(4).toString('hex')}.part`;
    try {
      const preview = await extractRawPreview(path, run);
      await mkdir(dir, { recursive: true });
      const jpeg = await sharp(preview, { failOn: 'error' })
        .autoOrient()
        .resize(VIEWABLE_EDGE, VIEWABLE_EDGE, { fit: 'inside', withoutEnlargement: true })
        .keepIccProfile()
        .jpeg({ quality: 88 })
        .toBuffer();
      await writeFile(temp, jpeg);
      await rename(temp, target);
      return target;
    } catch {
      // A RAW without a usable preview (or a damaged one) has nothing to show; the item says why when it runs.
      await unlink(temp).catch(() => undefined);
      return null;
    }
  };

  return {
    async get(path) {
      if (!isRawPath(path)) return path;
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) return null;
      const key = createHash('sha1').update(`${path}\0${info.size}\0${info.mtimeMs}`).digest('hex');
      const target = join(dir, `${key}.jpg`);
      if (await stat(target).then(() => true, () => false)) return target;
      let job = pending.get(key);
      if (!job) {
        job = limit(() => make(path, target)).finally(() => pending.delete(key));
        pending.set(key, job);
      }
      return job;
    },
  };
}
