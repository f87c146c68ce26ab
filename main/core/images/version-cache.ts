import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';

// Files derived from a photo for the screen (thumbnails, RAW previews): made once per file version (path, size,
// modification time) into a state-dir folder, written under a temporary name and renamed, a few at a time, and two
// requests for the same version at once share one job.

/** `make(path, temp)` writes the derived file to `temp`; false: there is nothing to show for this file. */
export type MakeDerived = (path: string, temp: string) => Promise<boolean>;

/** `extension` names what `make` writes (jpg, webp): the media routes serve by it. */
export function createVersionCache(dir: string, concurrency: number, make: MakeDerived, extension = 'jpg'): (path: string) => Promise<string | null> {
  const limit = pLimit(concurrency);
  const pending = new Map<string, Promise<string | null>>();

  const run = async (path: string, target: string): Promise<string | null> => {
    await mkdir(dir, { recursive: true });
    const temp = `${target}.${randomBytes(4).toString('hex')}.part`;
    try {
      if (!(await make(path, temp))) return null;
      await rename(temp, target);
      return target;
    } catch {
      return null; // an unreadable or damaged file has nothing to show; the row shows its name alone
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  };

  return async (path) => {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const key = createHash('sha1').update(`${path}\0${info.size}\0${info.mtimeMs}`).digest('hex');
    const target = join(dir, `${key}.${extension}`);
    if (await stat(target).then(() => true, () => false)) return target;
    let job = pending.get(key);
    if (!job) {
      job = limit(() => run(path, target)).finally(() => pending.delete(key));
      pending.set(key, job);
    }
    return job;
  };
}
