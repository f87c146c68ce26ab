import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

// chokidar reads a folder and only then puts its watch on it (handler.js _handleDir: await _handleRead, then
// _watchWithNodeFs). A sub-folder created, or renamed into place, between its parent's readdir and that watch is
// neither walked nor watched: no photo that arrives in it would ever be reported. The window is the read of the
// parent — seconds for a folder holding an archive — on every arm and every start. So once the walk is done, each
// watched folder is listed again (one readdir each: 1,000 at 100k photos) and a sub-folder chokidar does not watch is
// handed to it; the arm's scan, which reads the tree after this, takes what is already in it.

/** What this needs of the folder watcher (folder-watcher.ts), named here so the two files do not import each other. */
export interface WatchedFolders {
  watched(): Record<string, unknown>;
  add(paths: string[]): void;
}

/** Sub-folders of `root` that exist now but are not watched; each is added to the watcher. Returns them. */
export async function watchMissedDirs(watcher: WatchedFolders, root: string, ignored: (path: string) => boolean): Promise<string[]> {
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  // chokidar also keeps the root's parent (with the root as its only entry): only the root and what is below it count.
  const watched = new Set(Object.keys(watcher.watched()).filter(inside));
  const missed: string[] = [];
  for (const dir of watched) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      // A link to a folder is not followed (followSymlinks: false), so never a Dirent directory here either.
      if (!entry.isDirectory()) continue;
      const full = join(dir, entry.name);
      if (!watched.has(full) && !ignored(full)) missed.push(full);
    }
  }
  if (missed.length > 0) watcher.add(missed);
  return missed;
}
