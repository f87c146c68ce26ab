import { stat } from 'node:fs/promises';
import sharp from 'sharp';
import { hashFile } from './hash';

// What the planner learns about an input file — its content hash (the done ledger's key: never pay twice) and its
// long edge (the estimate's "originals up to N px") — remembered while the file is unchanged. The estimate reads
// every photo, and Start reads them all again moments later to create the batch: for 500 photos that second pass
// was most of the half second between Start and the first upload.
//
// "Unchanged" is the file's identity as git's index has it: device, inode, size, modification and change time in
// nanoseconds. Rewriting a file changes its ctime, which no tool can set back, so a file edited in place (even with
// its mtime restored) is read again. As in git's "racy" rule, nothing is kept of a file changed in the last 2 s:
// file systems stamp times from a coarse clock, so a second write within the same tick could leave every part of
// the identity as it was — a file still being written (a hot folder's new arrival) is simply read each time.

export interface FileFacts {
  /** SHA-256 of the file's bytes, hex. Rejects when the file cannot be read. */
  contentHash(path: string): Promise<string>;
  /** The long edge in pixels from the image header (no pixels decoded); 0 when the header cannot be read. */
  longEdge(path: string): Promise<number>;
}

interface Entry {
  identity: string;
  hash?: string;
  longEdge?: number;
}

/** Files remembered at most (about 200 bytes each): a few shoots' worth; the oldest looked-at goes first. */
const DEFAULT_MAX_ENTRIES = 50_000;
const RACY_MS = 2_000;

async function identityOf(path: string, nowMs: number): Promise<{ identity: string; racy: boolean }> {
  const s = await stat(path, { bigint: true });
  const changedMs = Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);
  return { identity: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, racy: nowMs - changedMs < RACY_MS };
}

async function readLongEdge(path: string): Promise<number> {
  try {
    const { width, height } = await sharp(path).metadata();
    return Math.max(width ?? 0, height ?? 0);
  } catch {
    return 0; // HEIC or unreadable: the size sentence simply leaves it out
  }
}

export function createFileFacts(options: { maxEntries?: number; hash?: (path: string) => Promise<string>; now?: () => number } = {}): FileFacts {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const hash = options.hash ?? hashFile;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const remember = (path: string, identity: string, fact: Partial<Entry>) => {
    const previous = entries.get(path);
    entries.delete(path); // re-inserted last: Map order is the LRU order
    entries.set(path, { ...(previous?.identity === identity ? previous : {}), ...fact, identity });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };

  async function fact<K extends 'hash' | 'longEdge'>(path: string, key: K, read: (path: string) => Promise<Entry[K] & {}>): Promise<Entry[K] & {}> {
    const { identity, racy } = await identityOf(path, now());
    const known = entries.get(path);
    if (known?.identity === identity && known[key] !== undefined) return known[key]!;
    const value = await read(path);
    if (!racy) remember(path, identity, { [key]: value });
    return value;
  }

  return {
    contentHash: (path) => fact(path, 'hash', hash),
    longEdge: (path) => fact(path, 'longEdge', readLongEdge).catch(() => 0),
  };
}
