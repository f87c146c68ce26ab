import { lstatSync, type BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { volumeIsLocal } from './volume-ctime';

// The stat a warm estimate makes of every photo (file-facts.ts: is it the version whose facts are kept?). Asked of
// libuv's pool it costs ≈ 45 µs of CPU (a request, a thread hop, a promise); synchronously ≈ 9 µs — at 100k photos
// 4.5 s against 0.9 s, most of a warm estimate. Synchronous only where that cannot freeze the process: a folder
// statfs shows on a local disk (volume-ctime.ts volumeIsLocal), and never through a link (its target may sit on a
// share: an lstat reads the link in its local folder, and a link is then stat'ed asynchronously as before).

/** Folders asked at most; the answers are asked again after REASK_MS (a share mounted over a folder meanwhile). */
const MAX_FOLDERS = 4_096;
const REASK_MS = 60_000;

const folders = new Map<string, boolean | Promise<boolean>>();
let askedSince = 0;

function folderIsLocal(folder: string): boolean | Promise<boolean> {
  const now = Date.now();
  if (folders.size >= MAX_FOLDERS || now - askedSince > REASK_MS) {
    folders.clear();
    askedSince = now;
  }
  const known = folders.get(folder);
  if (known !== undefined) return known;
  const asked = volumeIsLocal(folder);
  folders.set(folder, asked);
  void asked.then((local) => {
    if (folders.get(folder) === asked) folders.set(folder, local);
  });
  return asked;
}

/** `stat(path, { bigint: true })`, synchronous on a local disk for a file that is not a link (same fields, same errors). */
export async function statForIdentity(path: string): Promise<BigIntStats> {
  const local = folderIsLocal(dirname(path));
  if (local === true || (local !== false && (await local))) {
    const own = lstatSync(path, { bigint: true });
    if (!own.isSymbolicLink()) return own;
  }
  return stat(path, { bigint: true });
}
