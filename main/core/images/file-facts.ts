import { stat } from 'node:fs/promises';
import sharp from 'sharp';
import { hashFile } from './hash';
import type { RawFacts } from './raw-check';

// What the planner learns about an input file — its content hash (the done ledger's key: never pay twice) and its
// long edge (the estimate's "originals up to N px") — remembered while the file is unchanged. The estimate reads
// every photo, and Start reads them all again moments later to create the batch: for 500 photos that second pass
// was most of the half second between Start and the first upload.
//
// "Unchanged" is the file's identity as git's index has it: device, inode, size, modification and change time in
// nanoseconds. On most disks rewriting a file moves its ctime, which no tool can set back — but FAT/exFAT cards report
// the modification time as ctime, and network shares cache what stat says for seconds. So a fact lives only as long
// as the estimate → Start gap needs (10 minutes): the ledger key of a photo edited later (even one edit that keeps
// size and date) is always read from its bytes. As in git's "racy" rule, nothing is kept of a file changed in the
// last 2 s: times come from a coarse clock, and a file still being written is simply read each time.

export interface FileFacts {
  /** SHA-256 of the file's bytes, hex. Rejects when the file cannot be read. */
  contentHash(path: string): Promise<string>;
  /** The long edge in pixels from the image header (no pixels decoded); 0 when the header cannot be read. */
  longEdge(path: string): Promise<number>;
  /** What the RAW checker (raw-check.ts) says of a RAW: its refusal and sensor size; null without a checker. */
  raw(path: string): Promise<RawFacts | null>;
}

interface Entry {
  identity: string;
  /** When the first fact was read (ms): the entry is forgotten FACT_LIFETIME_MS later. */
  readAt: number;
  hash?: string;
  longEdge?: number;
  raw?: RawFacts;
}

/** Files remembered at most (a few hundred bytes each): a few shoots' worth; the oldest looked-at goes first. */
const DEFAULT_MAX_ENTRIES = 50_000;
const RACY_MS = 2_000;
const FACT_LIFETIME_MS = 10 * 60_000;

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

export function createFileFacts(options: {
  maxEntries?: number; hash?: (path: string) => Promise<string>; now?: () => number;
  /** The engine's RAW checker (its ExifTool); without one a RAW is judged when it is encoded, as before planning knew. */
  raw?: (path: string) => Promise<RawFacts>;
} = {}): FileFacts {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const hash = options.hash ?? hashFile;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  // Map order is the eviction order: an entry is moved to the end whenever it is used.
  const touch = (path: string, entry: Entry) => {
    entries.delete(path);
    entries.set(path, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };

  async function fact<K extends 'hash' | 'longEdge' | 'raw'>(path: string, key: K, read: (path: string) => Promise<Entry[K] & {}>): Promise<Entry[K] & {}> {
    const at = now();
    const { identity, racy } = await identityOf(path, at);
    const known = entries.get(path);
    const current = known && known.identity === identity && at - known.readAt < FACT_LIFETIME_MS ? known : undefined;
    if (current?.[key] !== undefined) {
      touch(path, current);
      return current[key]!;
    }
    const value = await read(path);
    if (!racy) touch(path, { ...(current ?? { identity, readAt: at }), [key]: value });
    else if (known) entries.delete(path);
    return value;
  }

  return {
    contentHash: (path) => fact(path, 'hash', hash),
    longEdge: (path) => fact(path, 'longEdge', readLongEdge).catch(() => 0),
    raw: async (path) => (options.raw ? fact(path, 'raw', options.raw) : null),
  };
}
