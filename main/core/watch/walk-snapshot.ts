import { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';

// chokidar watches every file it knows: one inotify watch (fs.watch) or one stat timer (fs.watchFile, polling) per
// file. A folder that already holds an archive of 100,000 photos cost 101,000 inotify watches (past the default
// limit of many Linux systems), seconds of walking, and in polling mode 50,000 stats a second. Files already there
// when the folder is armed are the scan's business (the existing-files policy, the baseline, the ledger), not the
// watcher's, so the watcher leaves them to their folder's watch: a directory's watch (inotify) reports its files
// being created, written, renamed or deleted, and a directory's mtime (polling) changes when a file is added,
// renamed or removed. chokidar then reads that directory again, and a file found then is reported if it is new or
// differs from what the walk saw (size, mtime or inode). So nothing that arrives is missed, and nothing already
// there is reported.

/** What identifies a file's content well enough to say "this is what the walk saw": a rewrite changes one of these. */
export interface WalkedFile { size: number; mtimeMs: number; ino: number }

const same = (a: WalkedFile, b: WalkedFile) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/**
 * The walk's entry for `path` if the file is still, right now, the regular file the walk saw. The walk may be minutes old when the arm's
 * scan reaches a file of a large archive: one rewritten since would otherwise get the old cached hash (and be skipped
 * as already processed), and one replaced by a link would be read without the link guard. One lstat: cheap next to
 * a hash, and it still saves the realpath.
 */
export async function walkedNow(path: string, walked: ((path: string) => WalkedFile | undefined) | null): Promise<WalkedFile | undefined> {
  const known = walked?.(path);
  if (!known) return undefined;
  const now = await lstat(path).catch(() => null);
  return now !== null && now.isFile() && same(known, now) ? known : undefined;
}

/**
 * walkedNow() with a synchronous lstat, for local folders: the resumed scan of a 100k archive asks this of every
 * file, and a promised lstat costs ten times a synchronous one (and its garbage). Never for a network share, where a
 * synchronous lstat holds the whole process while the share answers (local-walk.ts).
 */
export function walkedNowSync(path: string, walked: ((path: string) => WalkedFile | undefined) | null): WalkedFile | undefined {
  const known = walked?.(path);
  if (!known) return undefined;
  let now: Stats | undefined;
  try {
    now = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  return now !== undefined && now.isFile() && same(known, now) ? known : undefined;
}

/**
 * The files the watcher's initial walk found, by path. `skip(path, stats)` is asked by chokidar's `ignored` for
 * every directory entry it reads (with its lstat): during the walk it remembers each file and skips it; afterwards it
 * skips a file only while it is still what the walk saw. A file once found changed is forgotten for good (from then
 * on chokidar watches it itself, as any new file).
 */
export class WalkSnapshot {
  private readonly seen = new Map<string, WalkedFile>();
  private walking = true;

  /** True: chokidar should neither watch nor report this entry (a file already there, unchanged). */
  skip(path: string, stats: Stats | undefined): boolean {
    if (!stats) return false;
    if (!stats.isFile()) {
      // Replaced by a link, a folder…: no longer what the walk saw (the scan must not take it as a regular file
      // reached through real folders, and must run the link guard on it).
      if (!this.walking) this.seen.delete(path);
      return false;
    }
    if (this.walking) {
      this.seen.set(path, { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino });
      return true;
    }
    const known = this.seen.get(path);
    if (known === undefined) return false;
    if (same(known, stats)) return true;
    this.seen.delete(path);
    return false;
  }

  /**
   * A directory watch said something happened to this entry (created, deleted or renamed: inotify's 'rename'): a
   * file that is back under its old name with its old size, mtime and inode (moved out and in again) is reported too.
   */
  touched(path: string): void {
    this.seen.delete(path);
  }

  /**
   * The regular file at `path` as the walk saw it (lstat: not a link), while no change to it has been seen. The arm's
   * scan takes these instead of a stat and a realpath per file: reached through real folders only (chokidar does not
   * follow links), such a file is inside the watched folder.
   */
  get(path: string): WalkedFile | undefined {
    return this.seen.get(path);
  }

  /** The walk's files still unchanged (snapshot-poller.ts re-stats them in slices in polling mode). */
  paths(): IterableIterator<string> {
    return this.seen.keys();
  }

  /**
   * A file that arrived after the walk and has stayed unchanged (polling: folder-watcher.ts hands it over from its own
   * 2 s poll): from now on treated as one the walk found — skipped while it is this file, re-checked in slices.
   */
  adopt(path: string, file: WalkedFile): void {
    this.seen.set(path, { size: file.size, mtimeMs: file.mtimeMs, ino: file.ino });
  }

  /** The initial walk is over: files found from now on are new. */
  walked(): void {
    this.walking = false;
  }

  get size(): number {
    return this.seen.size;
  }
}
