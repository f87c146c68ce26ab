import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { isInside } from '../media/inside-root';
import { errnoOf, outputFs, writeAll } from './output-fs';
import { TEMP_PREFIX, TEMP_SUFFIX } from './save';

// What is wrong with an output folder that refused a write, in the words the user acts on — and whether it is
// fixed yet. These errnos mean the folder (its disk, its share, its permissions) is at fault, not the result: the
// batch pauses, the paid result is kept, and it is saved once the folder takes writes again.

/** Errnos that mean "the output folder cannot take this write now" (ENOENT only when the folder itself is gone). */
export const UNWRITABLE_ERRNOS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'ENOENT']);

export interface OutputProblem {
  /** The errno (ENOSPC, EROFS…). */
  code: string;
  /** The output folder named in the message. */
  folder: string;
  /** Free bytes on its file system when known. */
  freeBytes: number | null;
  /** "Output disk full: 36 KB free on /mnt/x. Free space, then Resume." */
  message: string;
}

/** Below this much free space a full disk is not "fixed" yet (a result and its finishing need room). */
export const MIN_FREE_BYTES = 256 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.floor(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

export async function freeBytesOf(folder: string): Promise<number | null> {
  try {
    const s = await outputFs.statfs(folder);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** The problem `code` means for `folder`, with the free space read now. */
export async function outputProblem(code: string, folder: string): Promise<OutputProblem> {
  const freeBytes = code === 'ENOENT' ? null : await freeBytesOf(folder);
  const free = freeBytes === null ? 'little space' : formatBytes(freeBytes);
  const message = {
    ENOSPC: `Output disk full: ${free} free on ${folder}. Free space, then Resume.`,
    EDQUOT: `Disk quota exceeded on ${folder} (${free} free). Free space or raise the quota, then Resume.`,
    EROFS: `Output folder ${folder} is on a read-only disk. Make it writable, then Resume.`,
    EACCES: `No permission to write in ${folder}. Fix its permissions, then Resume.`,
    EPERM: `No permission to write in ${folder}. Fix its permissions, then Resume.`,
    EIO: `The disk of ${folder} reported an input/output error (failing or disconnected?). Check it, then Resume.`,
    ENOENT: `Output folder ${folder} is not there (drive unplugged or share unmounted?). Reconnect it, then Resume.`,
  }[code] ?? `Cannot write to ${folder} (${code}). Fix it, then Resume.`;
  return { code, folder, freeBytes, message };
}

const isDirectory = (path: string) => outputFs.stat(path).then((s) => s.isDirectory(), () => false);

/**
 * Whether `folder` (inside the batch's output folder `root`) takes writes now: the output folder exists, the
 * nearest existing folder on the way to `folder` has `needBytes` (at least MIN_FREE_BYTES) free — room for what
 * waits, so a disk with a little space does not resume and fail again every few seconds —, and a small probe file can be written
 * there, fsynced and removed. Null when it does; else what is still wrong. Never creates a folder: a drive that is
 * not mounted must not get a copy of its folder on the system disk.
 */
export async function probeOutputFolder(folder: string, root: string = folder, needBytes = MIN_FREE_BYTES): Promise<OutputProblem | null> {
  try {
    const s = await outputFs.stat(root);
    if (!s.isDirectory()) return await outputProblem('ENOENT', root);
  } catch (error) {
    return outputProblem(errnoOf(error) === 'ENOENT' ? 'ENOENT' : (errnoOf(error) ?? 'EIO'), root);
  }
  // A sub-folder not made yet (its mkdir was refused): its parent is where the next write goes.
  while (folder !== root && isInside(folder, root) && !(await isDirectory(folder))) folder = dirname(folder);
  return probeWritable(folder, Math.max(MIN_FREE_BYTES, needBytes));
}

async function probeWritable(folder: string, needBytes: number): Promise<OutputProblem | null> {
  const free = await freeBytesOf(folder);
  if (free !== null && free < needBytes) return outputProblem('ENOSPC', folder);
  const probe = join(folder, `${TEMP_PREFIX}probe-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  try {
    const handle = await outputFs.open(probe, 'wx');
    try {
      await writeAll(handle, Buffer.alloc(4096));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await outputFs.unlink(probe);
    return null;
  } catch (error) {
    await outputFs.unlink(probe).catch(() => undefined);
    const code = errnoOf(error) ?? 'EIO';
    return outputProblem(code, folder);
  }
}
