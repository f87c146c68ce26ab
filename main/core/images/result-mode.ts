import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isInside } from '../media/inside-root';
import { outputFs } from './output-fs';

/**
 * The mode a result gets: never readable by more people than the folder it lands in lets in, nor than its original
 * was (a 0600 photo from a private folder stays 0600 in a shared 0755 output folder — its EXIF is the owner's). The
 * owner keeps read and write whatever the original (a read-only 0400 original still gives an editable result).
 * Execute bits never carry over. `null` on Windows, where POSIX modes mean nothing.
 */
export async function resultModeFor(folder: string, original: string | null): Promise<number | null> {
  if (process.platform === 'win32') return null;
  const folderInfo = await stat(folder).catch(() => null);
  let others = folderInfo ? folderInfo.mode & 0o066 : 0o044;
  if (original) {
    const originalInfo = await stat(original).catch(() => null);
    // An original that cannot be looked at any more: assume the narrowest, not the widest.
    others &= originalInfo ? originalInfo.mode & 0o066 : 0;
  }
  return 0o600 | others;
}

/** Gives the temp result its mode before it gets its final name (see resultModeFor). */
export async function narrowResultMode(temp: string, folder: string, original: string | null): Promise<void> {
  const mode = await resultModeFor(folder, original);
  if (mode === null) return;
  await outputFs.chmod(temp, mode).catch((error: NodeJS.ErrnoException) => {
    // File systems without POSIX modes (FAT, exFAT, some shares) refuse chmod: nothing there to narrow.
    if (error.code !== 'EPERM' && error.code !== 'ENOTSUP' && error.code !== 'EOPNOTSUPP') throw error;
  });
}

/** The real path of `path`, or of its longest existing ancestor with the rest appended (a folder not made yet). */
async function realOrAncestor(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

/**
 * Is `folder` (a result's destination, maybe a sub-folder kept from a `--recursive` input) really inside
 * `outputFolder`? A symlinked sub-folder in a shared output folder would otherwise carry results wherever its owner
 * points it. The output folder itself may be a link (the user chose it); links below it may not lead out.
 */
export async function destinationStaysInside(folder: string, outputFolder: string): Promise<boolean> {
  const [realFolder, realOutput] = await Promise.all([realOrAncestor(folder), realOrAncestor(outputFolder)]);
  return isInside(realFolder, realOutput);
}
