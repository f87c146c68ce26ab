import { openFactsStore, type FactsStore, type StoredFacts } from './file-facts-store';
import { identityOfStats, readFileFacts, type FileIdentity } from './file-read';
import { statForIdentity } from './identity-stat';
import { volumeKeepsCtime } from './volume-ctime';
import type { RawFacts } from './raw-check';

// What the planner learns about an input file — its content hash (the done ledger's key: never pay twice) and its
// long edge (the estimate's "originals up to N px") — remembered while the file is unchanged: in memory for this
// process (Start, moments after the estimate, reads nothing again), and in the state folder's file-facts.db
// (file-facts-store.ts) so that the next estimate of the same shoot — the next run of the same command, the app
// after a restart — reads nothing either ("warm": a stat and a lookup per photo).
//
// "Unchanged" is the file's identity as git's index has it: device, inode, size, modification and change time in
// nanoseconds. On most disks rewriting a file moves its ctime, which no tool can set back. (FAT/exFAT cards report the
// modification time as ctime: there, a tool that rewrites a photo in place keeping its size and restoring its date
// goes unseen — and the done ledger would skip the edited photo as done. So a file whose ctime is not the volume's
// own (volume-ctime.ts) is never kept in the store nor taken from it: its facts are trusted in memory for
// SHORT_TRUST_MS at most, the estimate → Start gap.) As in git's "racy" rule, nothing is kept of a file changed in the last 2 s: times come from a coarse clock,
// and a file still being written is simply read each time.
//
// A file is read once for both facts (file-read.ts): one open, one fstat, one read, its hash and its header.

export interface FileFacts {
  /** SHA-256 of the file's bytes, hex. Rejects when the file cannot be read. */
  contentHash(path: string): Promise<string>;
  /** The long edge in pixels from the image header (no pixels decoded); 0 when the header cannot be read. */
  longEdge(path: string): Promise<number>;
  /**
   * The long edge this planning already learned of the file (read or checked moments ago, by `contentHash`), without
   * a stat or a lookup; undefined when it did not. Cleared by the next `prefetch` (the next planning).
   */
  knownEdge?(path: string): number | undefined;
  /** Drops what planning learned of these files' edges: the estimate has read them (up to 250k numbers, ≈ 15 MB). */
  forgetEdges?(paths: Iterable<string>): void;
  /** What the RAW checker (raw-check.ts) says of a RAW: its refusal and sensor size; null without a checker. */
  raw(path: string): Promise<RawFacts | null>;
  /** Looks up what the state folder keeps of these files in a few queries (planning knows its list before reading). */
  prefetch(paths: readonly string[]): void;
  /** Writes the kept facts now (a CLI may exit right after its estimate). */
  flush(): void;
  close(): void;
}

/**
 * Files remembered in memory at most (≈ 400 bytes each). With a state folder its store answers beyond it (a lookup,
 * no read; a planning asks it for the whole selection at once), so memory holds the photos in hand, not a shoot: 20,000
 * made the engine's kept heap climb 0.6 MB per 1,000 photos for the first 20,000 of a batch (bench/scale-memory.ts).
 */
const DEFAULT_MAX_ENTRIES = 150_000;
const MAX_ENTRIES_WITH_STORE = 2_000;
/**
 * Long edges a planning keeps for its estimate's size sentence: a number per photo (≈ 40 B), where a memory entry
 * costs a few hundred. Beyond it an edge is looked up again (a stat and a row): slower, never wrong.
 */
const MAX_PLANNED_EDGES = 250_000;
/** A file changed less than this long ago is read every time, never kept (git's "racy" rule, above). */
export const RACY_MS = 2_000;
/** How long a file on a volume without a real ctime (FAT/exFAT) is trusted unchanged: this process, for moments. */
const SHORT_TRUST_MS = 10 * 60_000;

let filesRead = 0;
/** Files this process has read to learn a fact (hashes and headers): what "Start re-reads nothing" counts. */
export const fileFactReads = (): number => filesRead;

export function createFileFacts(options: {
  maxEntries?: number; now?: () => number;
  /** The state folder: facts are kept there between runs (absent: in memory only). */
  dir?: string;
  /** The engine's RAW checker (its ExifTool); without one a RAW is judged when it is encoded, as before planning knew. */
  raw?: (path: string) => Promise<RawFacts>;
} = {}): FileFacts {
  const maxEntries = options.maxEntries ?? (options.dir ? MAX_ENTRIES_WITH_STORE : DEFAULT_MAX_ENTRIES);
  const now = options.now ?? Date.now;
  const entries = new Map<string, StoredFacts>();
  /** Files whose ctime is not to be trusted (FAT/exFAT): until when their memory entry is. */
  const shortTrust = new Map<string, number>();
  /** The files of the last prefetch (until planning ends) and the rows the store had of them. */
  let covered = new Set<string>();
  let prefetched = new Map<string, StoredFacts>();
  /**
   * The long edge of each file this planning hashed. The memory entries keep the last MAX_ENTRIES_WITH_STORE files
   * only, so at 100k photos the estimate's largest edge stat'ed and looked up 80% of the shoot a second time (ms per
   * photo grew with N: a cost that starts at 20k photos).
   */
  let edges = new Map<string, number>();
  const noteEdge = (path: string, entry: StoredFacts) => {
    if (entry.longEdge !== undefined && edges.size < MAX_PLANNED_EDGES) edges.set(path, entry.longEdge);
  };
  let store: FactsStore | null | undefined = options.dir ? undefined : null;
  const kept = () => (store === undefined ? (store = openFactsStore(options.dir!)) : store);

  // Map order is the eviction order: an entry is moved to the end whenever it is used.
  const touch = (path: string, entry: StoredFacts) => {
    entries.delete(path);
    entries.set(path, entry);
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value!;
      entries.delete(oldest);
      shortTrust.delete(oldest);
    }
  };
  const remember = (path: string, entry: StoredFacts, trusted: boolean) => {
    touch(path, entry);
    if (trusted) kept()?.put(path, entry);
    else shortTrust.set(path, now() + SHORT_TRUST_MS);
  };
  const ctimeTrusted = (path: string, id: FileIdentity) =>
    (id.ctimeDistinct ? true : volumeKeepsCtime(path, id.identity.slice(0, id.identity.indexOf(':'))));

  /** What is known of this version of the file, or undefined; `racy` when it changed too recently to be kept. */
  async function known(path: string): Promise<{ identity: string; racy: boolean; trusted: boolean; entry: StoredFacts | undefined }> {
    const id = identityOfStats(await statForIdentity(path));
    const { identity, changedMs } = id;
    const racy = now() - changedMs < RACY_MS;
    const trusted = await ctimeTrusted(path, id);
    let candidate = entries.get(path);
    const stored = covered.has(path) ? prefetched.get(path) : undefined;
    prefetched.delete(path); // from here on the memory entries (or the store) have it
    if (!trusted) {
      // Only what this process read moments ago: a stored row may predate an edit that kept size and date.
      if (!((shortTrust.get(path) ?? 0) > now())) candidate = undefined;
    } else if (!candidate) candidate = covered.has(path) ? stored : kept()?.get(path);
    return { identity, racy, trusted, entry: candidate?.identity === identity ? candidate : undefined };
  }

  /** Hash and long edge, read together; kept unless the file is racy or changed while it was read. */
  async function readBoth(path: string, previous: StoredFacts | undefined): Promise<StoredFacts> {
    filesRead++;
    const read = await readFileFacts(path);
    const entry: StoredFacts = { ...(previous?.identity === read.identity ? previous : {}), identity: read.identity, hash: read.hash, longEdge: read.longEdge };
    if (now() - read.changedMs >= RACY_MS) remember(path, entry, await ctimeTrusted(path, read));
    else entries.delete(path);
    return entry;
  }

  return {
    async contentHash(path) {
      const { racy, entry } = await known(path);
      if (entry?.hash !== undefined && !racy) {
        touch(path, entry);
        noteEdge(path, entry);
        return entry.hash;
      }
      const read = await readBoth(path, entry);
      noteEdge(path, read);
      return read.hash!;
    },
    knownEdge: (path) => entries.get(path)?.longEdge ?? edges.get(path),
    forgetEdges(paths) {
      for (const path of paths) edges.delete(path);
    },
    async longEdge(path) {
      // Only the estimate's size sentence uses it: a fact this process read (or checked) is taken without a stat.
      const inMemory = entries.get(path);
      if (inMemory?.longEdge !== undefined) return inMemory.longEdge;
      try {
        const { racy, entry } = await known(path);
        if (entry?.longEdge !== undefined && !racy) return entry.longEdge;
        return (await readBoth(path, entry)).longEdge ?? 0;
      } catch {
        return 0;
      }
    },
    async raw(path) {
      if (!options.raw) return null;
      const { identity, racy, trusted, entry } = await known(path);
      if (entry?.raw !== undefined && !racy) {
        touch(path, entry);
        return entry.raw;
      }
      const value = await options.raw(path);
      if (!racy) remember(path, { ...(entry ?? { identity }), raw: value }, trusted);
      return value;
    },
    prefetch(paths) {
      edges = new Map();
      const store = kept();
      if (!store) return;
      covered = new Set(paths);
      prefetched = store.getMany(paths.filter((p) => !entries.has(p)));
    },
    flush: () => {
      covered = new Set();
      prefetched = new Map();
      kept()?.flush();
    },
    close: () => {
      if (store) store.close();
      store = null;
    },
  };
}
