import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { junkReason as junkNameReason } from '../../../shared/media/input-policy';

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

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

function norm(path: string): string {
  const abs = resolve(path);
  return caseInsensitive ? abs.toLowerCase() : abs;
}

/** True when `child` is `parent` itself or anything below it. */
export function isInside(child: string, parent: string): boolean {
  const rel = relative(norm(parent), norm(child));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface IgnoreRules {
  /** For chokidar's `ignored`: directories and files the watcher should not even descend into or report. */
  (path: string): boolean;
  excludedDirs: readonly string[];
}

/**
 * The folder's ignore rules: junk files plus the output, Done and Failed folders (an output folder nested inside the
 * watched folder would otherwise feed every result back in as a new photo, forever).
 */
export function ignoreRulesFor(root: string, outputFolder: string): IgnoreRules {
  const excludedDirs = [outputFolder, join(root, DONE_DIR), join(root, FAILED_DIR)].map((dir) => resolve(dir));
  const rules = ((path: string) => {
    const abs = resolve(path);
    if (norm(abs) === norm(root)) return false;
    if (excludedDirs.some((dir) => isInside(abs, dir))) return true;
    // Hidden folders (.git, .Trash, .sync) are skipped whole; hidden or partial files are junk.
    return junkReason(abs) !== null;
  }) as IgnoreRules;
  rules.excludedDirs = excludedDirs;
  return rules;
}
