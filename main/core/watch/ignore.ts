import { basename, join, resolve } from 'node:path';
import { junkReason as junkNameReason, skippedFolderReason } from '../../../shared/media/input-policy';
import { isInside, segmentsInside } from '../media/inside-root';

/** Subfolders of a watched folder that receive moved originals; always ignored so moved files never loop. */
export const DONE_DIR = 'Done';
export const FAILED_DIR = 'Failed';

/**
 * Files that are never photos to process (OS litter, hidden files, files still being written): the one input
 * policy's rule (shared/media/input-policy.ts), applied to a path.
 */
export function junkReason(path: string): string | null {
  return junkNameReason(basename(path));
}

export interface IgnoreRules {
  /** For chokidar's `ignored`: directories and files the watcher should not even descend into or report. */
  (path: string): boolean;
  excludedDirs: readonly string[];
}

/**
 * The folder's ignore rules, the same for the live watcher and the folder scan: junk files, the folders the input
 * policy never searches (hidden ones, `__MACOSX`, `$RECYCLE.BIN`, `System Volume Information`) at any depth, and
 * the output, Done and Failed folders (an output folder nested inside the watched folder would otherwise feed every
 * result back in as a new photo, forever). Every segment below the root is looked at, not only the last: a watcher
 * may report a file deep inside a folder it was never asked about.
 */
export function ignoreRulesFor(root: string, outputFolder: string): IgnoreRules {
  const excludedDirs = [outputFolder, join(root, DONE_DIR), join(root, FAILED_DIR)].map((dir) => resolve(dir));
  const rules = ((path: string) => {
    const below = segmentsInside(root, path);
    if (below !== null && below.length === 0) return false;
    if (excludedDirs.some((dir) => isInside(path, dir))) return true;
    // The last segment may be a file or a folder (chokidar does not always say): both rules apply to it.
    const parts = below ?? [basename(path)];
    if (parts.slice(0, -1).some((part) => skippedFolderReason(part) !== null)) return true;
    const last = parts[parts.length - 1]!;
    return skippedFolderReason(last) !== null || junkNameReason(last) !== null;
  }) as IgnoreRules;
  rules.excludedDirs = excludedDirs;
  return rules;
}
