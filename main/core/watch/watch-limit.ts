import { readFileSync } from 'node:fs';

// Native watching holds one inotify watch per watched folder (and per file that arrived while armed) on Linux, and
// one handle each elsewhere. When the system's limit is reached, fs.watch throws ENOSPC (Linux: "System limit for
// number of file watchers reached") or EMFILE, chokidar reports it as an 'error' and goes on without that folder: its
// new files would never be reported. The folder falls back to polling instead, and says so.

/** True for the errors that mean "no more native watches", not "this folder is unreadable". */
export function isWatchLimitError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EMFILE';
}

/** The Linux limit, or null where there is none to read (a /proc file: read at once, never stalls). */
function inotifyLimit(): number | null {
  if (process.platform !== 'linux') return null;
  let text: string | null = null;
  try {
    text = readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8');
  } catch {
    // not readable in this sandbox: the message names the setting without its value
  }
  const value = text === null ? NaN : Number(text.trim());
  return Number.isFinite(value) ? value : null;
}

/** What the folder's card says while it polls because native watches ran out. */
export function watchLimitReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EMFILE') {
    return 'too many open files to watch this folder natively: it is polled instead (new photos are found within about a second; raise the open-files limit to watch it natively)';
  }
  const limit = inotifyLimit();
  const setting = limit === null ? 'fs.inotify.max_user_watches' : `fs.inotify.max_user_watches = ${limit}`;
  return `the system's limit on watched folders was reached (${setting}): this folder is polled instead (new photos are found within about a second, at more CPU); raise the limit (sudo sysctl fs.inotify.max_user_watches=524288) to watch it natively`;
}
