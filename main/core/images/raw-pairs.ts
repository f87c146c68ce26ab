import { basename, dirname } from 'node:path';
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

/** The files to process and the halves left out (in their original order), under the pairing mode. */
export function pairRawWithJpeg<T extends { path: string }>(files: readonly T[], mode: RawPairs): { files: T[]; skipped: SkippedInput[] } {
  if (mode === 'both') return { files: [...files], skipped: [] };
  const groups = new Map<string, { raws: T[]; jpegs: T[] }>();
  for (const file of files) {
    const name = basename(file.path);
    const kind = isRawName(name) ? 'raws' : isJpegName(name) ? 'jpegs' : null;
    if (!kind) continue;
    const key = `${dirname(file.path)}\0${stemOf(file.path)}`;
    const group = groups.get(key) ?? { raws: [], jpegs: [] };
    group[kind].push(file);
    groups.set(key, group);
  }
  const left = new Map<T, string>();
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
