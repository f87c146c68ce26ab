import { opendir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { SkippedInput } from '../../../shared/engine/model';
import { classifyInputFile, isSkippedFolder } from './classify';

export interface ScannedFile {
  path: string;
  /** Folder of the file relative to the input folder it was found in ('' for files given directly). */
  relDir: string;
}

export interface ScanResult {
  files: ScannedFile[];
  skipped: SkippedInput[];
}

export interface ScanOptions {
  recursive: boolean;
  /** Never descended into (the output folder, when it lies inside an input folder). */
  exclude?: readonly string[];
}

const isInside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** Expands files and folders into candidate image files, in a stable (sorted) order, with a reason for every skip. */
export async function scanInputs(paths: readonly string[], options: ScanOptions): Promise<ScanResult> {
  const files: ScannedFile[] = [];
  const skipped: SkippedInput[] = [];
  const seen = new Set<string>();
  const excluded = (options.exclude ?? []).map((p) => resolve(p));

  const addFile = (path: string, relDir: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const verdict = classifyInputFile(path);
    if (verdict.ok) files.push({ path, relDir });
    else skipped.push({ path, reason: verdict.reason });
  };

  const walk = async (root: string, folder: string): Promise<void> => {
    let dir;
    try {
      dir = await opendir(folder);
    } catch (error) {
      skipped.push({ path: folder, reason: `folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    const entries: { name: string; isDir: boolean; isFile: boolean }[] = [];
    for await (const entry of dir) entries.push({ name: entry.name, isDir: entry.isDirectory(), isFile: entry.isFile() });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (entry.isDir) {
        if (!options.recursive) continue;
        if (isSkippedFolder(entry.name)) continue;
        if (excluded.some((ex) => isInside(full, ex))) continue;
        await walk(root, full);
      } else if (entry.isFile) {
        addFile(full, relative(root, folder));
      } else {
        skipped.push({ path: full, reason: 'not a regular file' });
      }
    }
  };

  for (const input of paths) {
    const absolute = resolve(input);
    let info;
    try {
      info = await stat(absolute);
    } catch (error) {
      skipped.push({ path: absolute, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'cannot be read' });
      continue;
    }
    if (info.isDirectory()) await walk(absolute, absolute);
    else if (info.isFile()) addFile(absolute, '');
    else skipped.push({ path: absolute, reason: 'not a regular file' });
  }
  return { files, skipped };
}

