import { realpath } from 'node:fs/promises';
import { isInside } from '../media/inside-root';

/**
 * Does `path` (a file the watcher or the scan found in a hot folder) really lie inside the watched folder? A link in a
 * shared hot folder is followed only when its target is in that folder too: otherwise anyone who may write there
 * could make Batchroom read — and upload, and save as a result in the output folder — a file only its owner can read.
 */
export async function realPathInside(path: string, watchedFolder: string): Promise<boolean> {
  const [real, realFolder] = await Promise.all([realpath(path).catch(() => null), realpath(watchedFolder).catch(() => null)]);
  return real !== null && realFolder !== null && isInside(real, realFolder);
}
