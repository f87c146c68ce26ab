import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { relativeInside as pathInside } from '../media/inside-root';
import { safeRelDir } from '../../../shared/naming';

// The file-system side of the namer (shared/naming is pure): which names are already in an output folder, and which
// of a batch's originals lie inside it, both as the '/'-separated relative paths planOutputNames compares.

/** Absolute folder a planned relative path lives in (`sub/x.jpg` → `<out>/sub`). */
export function folderOf(outputFolder: string, relPath: string): string {
  const parts = relPath.split('/');
  parts.pop();
  return resolve(outputFolder, ...parts);
}

/** Absolute path of a planned relative path. */
export function absoluteOf(outputFolder: string, relPath: string): string {
  return resolve(outputFolder, ...relPath.split('/'));
}

/** Names present in the output folder's sub-folders `relDirs` (as given to the namer), e.g. `sub/x.jpg`. */
export async function existingNames(outputFolder: string, relDirs: Iterable<string>): Promise<string[]> {
  const names: string[] = [];
  for (const relDir of new Set(Array.from(relDirs, safeRelDir))) {
    const folder = relDir ? join(outputFolder, ...relDir.split('/')) : outputFolder;
    const entries = await readdir(folder).catch(() => [] as string[]);
    for (const name of entries) names.push(relDir ? `${relDir}/${name}` : name);
  }
  return names;
}

/** `paths` inside `outputFolder`, relative and '/'-separated (results are never written over these). */
export function relativeInside(outputFolder: string, paths: Iterable<string>): string[] {
  const root = resolve(outputFolder);
  const out: string[] = [];
  for (const path of paths) {
    if (/^https?:\/\//i.test(path)) continue;
    const rel = pathInside(root, path);
    if (rel) out.push(rel);
  }
  return out;
}
