import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Lists the files of a watched folder (recursive or not) that the ignore rules let through. Used when a folder is
 * armed, after a restart, when it comes back from being unavailable, and by the dry run. Throws when the root
 * itself cannot be read; unreadable subfolders are skipped (they are reported by the watcher's error path).
 */
export async function scanFolder(root: string, recursive: boolean, ignored: (path: string) => boolean): Promise<string[]> {
  const files: string[] = [];
  const pending: string[] = [root];
  let first = true;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (first) throw error;
      continue;
    }
    first = false;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (ignored(path)) continue;
      if (entry.isDirectory()) {
        if (recursive) pending.push(path);
      } else if (entry.isFile()) {
        files.push(path);
      }
    }
  }
  return files.sort();
}
