import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { RawPairs, SkippedInput } from '../../../shared/engine/model';
import { isJpegName, isRawName } from '../../../shared/media/input-policy';

// RAW+JPEG shooting writes every photo twice (IMG_0001.CR3 + IMG_0001.JPG). Sent as two items it would be paid for
// twice and saved as IMG_0001_x.jpg and IMG_0001_x (2).jpg — the same picture. A RAW and a JPEG with the same stem
// (case-insensitive, as on macOS and Windows) in the same folder are therefore one photo: processed from the JPEG
// (default — the camera developed it), from the RAW's preview, or `both` as two, as before. The half not sent is
// reported as skipped with a reason that names its partner, so nothing disappears without a word.

const stemOf = (path: string) => {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
};

const halfOf = (name: string) => (isRawName(name) ? 'raws' : isJpegName(name) ? 'jpegs' : null);

/**
 * The files to process and the halves left out (in their original order), under the pairing mode. `partnersOnDisk`
 * (hot folders, which submit files as they arrive): a half whose partner is already in its folder but not among
 * `files` — it arrived earlier and went, or goes, on its own — pairs with it all the same.
 */
export async function pairRawWithJpeg<T extends { path: string }>(files: readonly T[], mode: RawPairs, options: { partnersOnDisk?: boolean } = {}): Promise<{ files: T[]; skipped: SkippedInput[] }> {
  if (mode === 'both') return { files: [...files], skipped: [] };
  const everything: Array<T | { path: string }> = [...files, ...(options.partnersOnDisk ? await partnersOnDisk(files) : [])];
  const groups = new Map<string, { raws: Array<{ path: string }>; jpegs: Array<{ path: string }> }>();
  for (const file of everything) {
    const kind = halfOf(basename(file.path));
    if (!kind) continue;
    const key = `${dirname(file.path)}\0${stemOf(file.path)}`;
    const group = groups.get(key) ?? { raws: [], jpegs: [] };
    group[kind].push(file);
    groups.set(key, group);
  }
  const left = new Map<{ path: string }, string>();
  for (const { raws, jpegs } of groups.values()) {
    if (raws.length === 0 || jpegs.length === 0) continue;
    const [kept, dropped] = mode === 'jpeg' ? [jpegs[0]!, raws] : [raws[0]!, jpegs];
    for (const file of dropped) left.set(file, `RAW+JPEG pair: edited once, from ${basename(kept.path)}`);
  }
  return {
    files: files.filter((f) => !left.has(f)),
    skipped: files.filter((f) => left.has(f)).map((f) => ({ path: f.path, reason: left.get(f)!, rawPair: true })),
  };
}

/** The RAW/JPEG files next to `files` with a stem one of them has, not among them (one listing per folder). */
async function partnersOnDisk(files: readonly { path: string }[]): Promise<Array<{ path: string }>> {
  const given = new Set(files.map((f) => f.path));
  const stemsByFolder = new Map<string, Set<string>>();
  for (const file of files) {
    if (!halfOf(basename(file.path))) continue;
    const stems = stemsByFolder.get(dirname(file.path)) ?? new Set<string>();
    stems.add(stemOf(file.path));
    stemsByFolder.set(dirname(file.path), stems);
  }
  const found: Array<{ path: string }> = [];
  for (const [folder, stems] of stemsByFolder) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const path = join(folder, name);
      if (!given.has(path) && halfOf(name) && stems.has(stemOf(path))) found.push({ path });
    }
  }
  return found;
}
