import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { RawPairs, SkippedInput } from '../../../shared/engine/model';
import { classifyInputName, hasImageExtension, skippedFolderReason } from '../../../shared/media/input-policy';
import { isInside } from '../media/inside-root';
import { pairRawWithJpeg } from './raw-pairs';

// The one input policy for every way in (the CLI, the app's batches, hot folders): files given directly and files
// found in folders follow the same rules, and every path that is not processed is reported with a reason.

export interface ResolvedFile {
  /** Where the file was found (a link keeps its own name and place, so names and sub-folders mirror what the user sees). */
  path: string;
  /** The file behind every link: what identifies it (a file reached twice is processed once). */
  realPath: string;
  /** Folder of the file relative to the input folder it was found in ('' for files given directly). */
  relDir: string;
}

export interface ResolvedInputs {
  files: ResolvedFile[];
  /** Grouped reasons (photos left in sub-folders) come first: they are the ones a user most needs to see. */
  skipped: SkippedInput[];
}

export interface ResolveOptions {
  recursive: boolean;
  /** Folders never searched (the output folder inside an input folder): reported once each. */
  exclude?: readonly string[];
  /** Paths passed over without a word (a hot folder's own ignore rules: junk it sees all day, its Done folder). */
  ignore?: (path: string) => boolean;
  /** RAW+JPEG pairs (same stem, same folder) are one photo, processed from this half (raw-pairs.ts); absent: 'both'. */
  rawPairs?: RawPairs;
  /** Pair also with a partner already in the folder but not given (hot folders: files are given as they arrive). */
  partnersOnDisk?: boolean;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

type Kind = 'file' | 'dir' | 'other';
interface Target { kind: Kind; real: string }

export async function resolveInputs(paths: readonly string[], options: ResolveOptions): Promise<ResolvedInputs> {
  const files: ResolvedFile[] = [];
  const grouped: SkippedInput[] = [];
  const skipped: SkippedInput[] = [];
  const firstPathOf = new Map<string, string>();
  const walkedFolders = new Map<string, string>();
  const excluded = await Promise.all((options.exclude ?? []).map((p) => realpath(p).catch(() => resolve(p))));
  const ignored = (path: string) => options.ignore?.(path) === true;
  /** In the output folder, where that folder sits inside `within` (an input folder): never the other way round. */
  const isOutput = (real: string, within: string) => excluded.some((ex) => isInside(real, ex) && isInside(ex, within));

  /** What a directory entry or a given path really is, following links; a skip reason when it cannot be followed. */
  const follow = async (path: string, entry?: Dirent, parentReal?: string): Promise<Target | { reason: string }> => {
    try {
      const isLink = entry ? entry.isSymbolicLink() : (await lstat(path)).isSymbolicLink();
      if (entry && !isLink) return { kind: entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other', real: parentReal ? join(parentReal, entry.name) : await realpath(path) };
      const real = await realpath(path);
      const info = await stat(real);
      return { kind: info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'other', real };
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') return { reason: 'link loop: the link leads back to itself' };
      if (code === 'ENOENT') return { reason: entry || (await lstat(path).then((i) => i.isSymbolicLink(), () => false)) ? 'broken link: its target is missing' : 'file not found' };
      return { reason: `cannot be read (${code})` };
    }
  };

  const addFile = (path: string, real: string, relDir: string) => {
    const first = firstPathOf.get(real);
    if (first !== undefined) return void skipped.push({ path, reason: first === path ? 'given twice: processed once' : `same file as ${first}: processed once` });
    firstPathOf.set(real, path);
    const verdict = classifyInputName(basename(path));
    // The same path (no link on the way) is kept once: `real` is a rope of join()'s pieces, ≈ 350 B a file at 100k.
    if (verdict.ok) files.push({ path, realPath: real === path ? path : real, relDir });
    else skipped.push({ path, reason: verdict.reason });
  };

  /** Why a folder found inside an input folder is not searched, or null. `ancestors` are the real folders above it. */
  const folderSkip = (path: string, real: string, ancestors: ReadonlySet<string>): string | null => {
    const reason = skippedFolderReason(basename(path));
    if (reason) return reason;
    // Reached through a link, an output folder outside the input folder is still never searched (its results would
    // be priced and sent as new photos); one inside it is passed over before this (isOutput).
    if (excluded.some((ex) => isInside(real, ex))) return 'output folder: not searched';
    if (ancestors.has(real)) return `link loop: leads back to ${real}`;
    const walked = walkedFolders.get(real);
    if (walked !== undefined) return `same folder as ${walked}: searched once`;
    return null;
  };

  const entriesOf = async (folder: string): Promise<Dirent[] | { reason: string }> => {
    try {
      return (await readdir(folder, { withFileTypes: true })).sort(byName);
    } catch (error) {
      return { reason: `folder cannot be read (${errorCode(error)})` };
    }
  };

  /** Photos below a folder that is not searched (no recursion): counted, not listed, with the same rules. */
  const countPhotos = async (folder: string, real: string, ancestors: ReadonlySet<string>): Promise<number> => {
    const entries = await entriesOf(folder);
    if (!Array.isArray(entries)) return 0;
    let count = 0;
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (ignored(full)) continue;
      const target = await follow(full, entry, real);
      if (!('kind' in target)) continue;
      if (target.kind === 'file' && classifyInputName(entry.name).ok) count++;
      else if (target.kind === 'dir' && skippedFolderReason(entry.name) === null && !excluded.some((ex) => isInside(target.real, ex)) && !ancestors.has(target.real)) {
        count += await countPhotos(full, target.real, new Set([...ancestors, target.real]));
      }
    }
    return count;
  };

  const walk = async (root: string, folder: string, real: string, ancestors: ReadonlySet<string>): Promise<void> => {
    walkedFolders.set(real, folder);
    const rootReal = ancestors.values().next().value!; // the input folder's own real path: ancestors start with it
    const entries = await entriesOf(folder);
    if (!Array.isArray(entries)) return void skipped.push({ path: folder, ...entries });
    let leftPhotos = 0;
    let leftFolders = 0;
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (ignored(full)) continue;
      const target = await follow(full, entry, real);
      if (!('kind' in target)) {
        skipped.push({ path: full, reason: target.reason });
      } else if (target.kind === 'file') {
        addFile(full, target.real, relative(root, folder));
      } else if (target.kind === 'other') {
        skipped.push({ path: full, reason: 'not a regular file' });
      } else if (isOutput(target.real, rootReal)) {
        // The output folder inside an input folder holds results, never inputs: passed over without a word (a
        // skipped entry made it an item of every batch run on that folder, "SAVED 22 / 26").
        continue;
      } else {
        const reason = folderSkip(full, target.real, ancestors);
        if (reason) skipped.push({ path: full, reason });
        else if (options.recursive) await walk(root, full, target.real, new Set([...ancestors, target.real]));
        else {
          // Without recursion a sub-folder is not searched, but its photos are not dropped without a word: they are
          // counted into one grouped reason for the input folder. A folder named like a photo is named on its own.
          if (hasImageExtension(entry.name)) skipped.push({ path: full, reason: 'a folder, not a photo (named like one)' });
          const photos = await countPhotos(full, target.real, new Set([...ancestors, target.real]));
          if (photos > 0) {
            leftPhotos += photos;
            leftFolders++;
          }
        }
      }
    }
    if (leftPhotos > 0) {
      grouped.push({ path: folder, reason: `${plural(leftPhotos, 'photo')} in ${plural(leftFolders, 'subfolder')} not included`, subfolders: { photos: leftPhotos, folders: leftFolders } });
    }
  };

  // A folder given that is the output folder (or inside it), when that sits in the folder of another input, is passed
  // over too: `run shoot/*` names shoot/Batchroom once a first run made it. Given alone (`--out shoot shoot`), or
  // with inputs elsewhere, it is what the user asked for.
  const targets = await Promise.all(paths.map(async (input) => {
    const absolute = resolve(input);
    return { absolute, target: ignored(absolute) ? null : await follow(absolute) };
  }));
  const homes = targets.flatMap(({ target }) => (target && 'kind' in target ? [target.kind === 'dir' ? target.real : dirname(target.real)] : []));
  // Only a folder in (or equal to) an excluded one can be an output folder: asked first, so 1,000 folders given (a
  // shell's `shoot/*`) cost 1,000 checks against the one output folder, not 1,000 × 1,000 path comparisons (7 s).
  const givenOutput = (real: string) =>
    excluded.some((ex) => isInside(real, ex)) && homes.some((home) => home !== real && !isInside(home, real) && isOutput(real, home));
  for (const { absolute, target } of targets) {
    if (!target) continue;
    if (!('kind' in target)) skipped.push({ path: absolute, reason: target.reason });
    else if (target.kind === 'dir' && givenOutput(target.real)) continue;
    else if (target.kind === 'dir') {
      const walked = walkedFolders.get(target.real);
      if (walked !== undefined) skipped.push({ path: absolute, reason: walked === absolute ? 'given twice: searched once' : `same folder as ${walked}: searched once` });
      else await walk(absolute, absolute, target.real, new Set([target.real]));
    } else if (target.kind === 'file') addFile(absolute, target.real, '');
    else skipped.push({ path: absolute, reason: 'not a regular file' });
  }
  const paired = await pairRawWithJpeg(files, options.rawPairs ?? 'both', { partnersOnDisk: options.partnersOnDisk });
  return { files: paired.files, skipped: [...grouped, ...skipped, ...paired.skipped] };
}
