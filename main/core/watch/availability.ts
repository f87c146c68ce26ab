import { constants } from 'node:fs';
import { access, opendir, stat } from 'node:fs/promises';

/**
 * Null when the folder can be watched, else a sentence saying why not. A stalled network mount can make stat()
 * hang for minutes, so the check gives up after `timeoutMs` and reports the folder as not responding.
 */
export async function folderUnavailableReason(path: string, timeoutMs = 5_000): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('the folder is not responding (network share or disk stalled)'), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([probe(path), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function probe(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return 'the path is not a folder';
    await access(path, constants.R_OK | constants.X_OK);
    // A just-unmounted share can still stat; reading an entry is the real test of "readable". One entry, not the
    // whole listing: this runs every few seconds on folders of thousands of files.
    const dir = await opendir(path, { bufferSize: 1 });
    try {
      await dir.read();
    } finally {
      await dir.close().catch(() => undefined);
    }
    return null;
  } catch (error) {
    return describeFsError(error);
  }
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': return 'the folder was not found (deleted, renamed, or its disk is not mounted)';
    case 'EACCES':
    case 'EPERM': return 'permission denied: Batchroom cannot read this folder';
    case 'ENOTDIR': return 'the path is not a folder';
    case 'EIO':
    case 'ENXIO':
    case 'ESTALE':
    case 'EHOSTDOWN':
    case 'ENOTCONN': return 'the folder cannot be read (disk or network share disconnected)';
    case 'ENOSPC': return 'the system watch limit was reached (raise fs.inotify.max_user_watches or use polling)';
    case 'EMFILE': return 'too many open files to watch this folder (use polling for very large folders)';
    default: return error instanceof Error ? `the folder cannot be read: ${error.message}` : 'the folder cannot be read';
  }
}
