import { basename, join, resolve, sep } from 'node:path';
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
  const slow = (path: string) => {
    const below = segmentsInside(root, path);
    if (below !== null && below.length === 0) return false;
    if (excludedDirs.some((dir) => isInside(path, dir))) return true;
    // The last segment may be a file or a folder (chokidar does not always say): both rules apply to it.
    const parts = below ?? [basename(path)];
    return partsIgnored(parts);
  };
  const fast = fastInsideRoot(root, excludedDirs);
  const rules = ((path: string) => {
    // The watcher's walk and the scan ask this of every file of the folder (100,000 in an archive): a clean path
    // below the root is answered on its string alone; anything else by the segment-by-segment rule.
    const verdict = fast(path);
    return verdict === null ? slow(path) : verdict;
  }) as IgnoreRules;
  rules.excludedDirs = excludedDirs;
  return rules;
}

function partsIgnored(parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length - 1; i++) if (skippedFolderReason(parts[i]!) !== null) return true;
  const last = parts[parts.length - 1]!;
  return skippedFolderReason(last) !== null || junkNameReason(last) !== null;
}

/**
 * The same verdict as the segment rule for a path that is the root's resolved spelling, a separator, then clean
 * segments (no empty, `.` or `..` ones; on Windows no `/`), compared case-folded where volumes are case-insensitive.
 * Null: not such a path, ask the segment rule.
 */
export function fastInsideRoot(root: string, excludedDirs: readonly string[], platform: string = process.platform, separator: string = sep) {
  const fold = platform === 'win32' || platform === 'darwin' ? (s: string) => s.toLowerCase() : (s: string) => s;
  const resolvedRoot = fold(resolve(root));
  const prefix = resolvedRoot.endsWith(separator) ? resolvedRoot : resolvedRoot + separator;
  const excluded = excludedDirs.map((dir) => fold(dir));
  return (path: string): boolean | null => {
    const folded = fold(path);
    if (!folded.startsWith(prefix) || folded.length === prefix.length) return null;
    const rest = path.slice(prefix.length);
    if (platform === 'win32' && rest.includes('/')) return null;
    const parts = rest.split(separator);
    for (const part of parts) if (part === '' || part === '.' || part === '..') return null;
    for (const dir of excluded) if (folded === dir || folded.startsWith(dir.endsWith(separator) ? dir : dir + separator)) return true;
    return partsIgnored(parts);
  };
}
