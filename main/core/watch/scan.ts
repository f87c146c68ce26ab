import { opendir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { RawPairs, SkippedInput } from '../../../shared/engine/model';
import { classifyInputName } from '../../../shared/media/input-policy';
import { resolveInputs, type ResolvedInputs } from '../images/resolve-inputs';

/**
 * A watched folder through the one input policy (links followed, loops and photos left in sub-folders reported),
 * with the folder's ignore rules passing junk and its Done/Failed/output folders over without a word. Throws when
 * the root itself cannot be read. `rawPairs` (the dry run, which prices what will be paid): the half of a RAW+JPEG
 * pair that will not be edited is reported as skipped; absent, both halves are files (each is submitted, and the
 * engine pairs them).
 */
export async function scanFolderInputs(root: string, recursive: boolean, ignored: (path: string) => boolean, rawPairs?: RawPairs): Promise<ResolvedInputs> {
  await (await opendir(root)).close();
  return resolveInputs([root], { recursive, ignore: (path) => path !== root && ignored(path), ...(rawPairs ? { rawPairs } : {}) });
}

/**
 * The files of a watched folder to consider, sorted. Files of an unsupported type are included so the pipeline
 * records them as unsupported in the folder's activity, as it does for files that arrive while armed.
 */
export async function scanFolder(root: string, recursive: boolean, ignored: (path: string) => boolean): Promise<string[]> {
  return candidatesOf(await scanFolderInputs(root, recursive, ignored)).files;
}

/** The files to consider (sorted) and which of the skips are files the name rule refused (included in `files`). */
export function candidatesOf(scan: ResolvedInputs): { files: string[]; unsupported: ReadonlySet<SkippedInput> } {
  const unsupported = new Set(scan.skipped.filter((s) => {
    const verdict = classifyInputName(basename(s.path));
    return !verdict.ok && verdict.reason === s.reason;
  }));
  return { files: [...scan.files.map((f) => f.path), ...[...unsupported].map((s) => s.path)].sort(), unsupported };
}
