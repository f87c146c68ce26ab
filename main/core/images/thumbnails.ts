import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';

// Small pictures for the queue: made once per file version (path, size, modification time), kept in the state dir,
// two at a time so a 10,000-row queue scrolled quickly never competes with the batch for the CPU. A file sharp
// cannot read (HEIC, RAW, a damaged photo) has no thumbnail; the row shows its name alone.

export const THUMBNAIL_EDGE = 96;

export interface ThumbnailCache {
  /** The thumbnail of `path` (made now if needed), or null when the file is not a picture sharp can read. */
  get(path: string): Promise<string | null>;
}

export function createThumbnailCache(dir: string, concurrency = 2): ThumbnailCache {
  const limit = pLimit(concurrency);
  const pending = new Map<string, Promise<string | null>>();

  const make = async (path: string, target: string): Promise<string | null> => {
    await mkdir(dir, { recursive: true });
    const temp = `${target}.${randomBytes(4).toString('hex')}.part`;
    try {
      await sharp(path, { failOn: 'error', limitInputPixels: 200_000_000 })
        .autoOrient()
        .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 70 })
        .toFile(temp);
      await rename(temp, target);
      return target;
    } catch {
      await unlink(temp).catch(() => undefined);
      return null;
    }
  };

  return {
    async get(path) {
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) return null;
      const key = createHash('sha1').update(`${path}\0${info.size}\0${info.mtimeMs}`).digest('hex');
      const target = join(dir, `${key}.jpg`);
      if (await stat(target).then(() => true, () => false)) return target;
      // Two rows asking for the same photo at once share one resize.
      let job = pending.get(key);
      if (!job) {
        job = limit(() => make(path, target)).finally(() => pending.delete(key));
        pending.set(key, job);
      }
      return job;
    },
  };
}
