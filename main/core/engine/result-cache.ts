import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf, outputFs, writeAll } from '../images/output-fs';

// Paid results kept in the state folder (`<state>/result-cache/`), keyed by execution id and result index, so that
// a result the output folder refused (disk full, read-only, unplugged) is never lost nor paid again: the saver
// downloads each result here first and writes the output from these bytes; a later save (Resume, the automatic
// retry, the next start) takes them from here without a download. Bounded: at most `maxBytes` (setting
// `resultCacheMb`). Saved entries are evicted oldest-saved first; unsaved ones never are — when they alone fill the
// cache a new result is not kept (put throws ResultCacheUnavailable) and is written straight to the output folder,
// or downloaded again while the service still has it.
//
// Files: `<key>.<index>.unsaved` / `<key>.<index>.saved` (key: the execution id when it is a plain token, else its
// SHA-256), written through `<name>.<random>.tmp` + fsync + rename. Other parts of the engine read it through get():
// a second batch of the same photo takes the stored result of the execution it follows (docs/engine.md).

export const DEFAULT_RESULT_CACHE_BYTES = 2 * 1024 ** 3;
export const RESULT_CACHE_FOLDER = 'result-cache';

/** The cache could not keep these bytes (its disk is full or unwritable, or unsaved results fill it). */
export class ResultCacheUnavailable extends Error {
  constructor(message: string, readonly code: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ResultCacheUnavailable';
  }
}

export interface ResultCacheUsage {
  bytes: number;
  entries: number;
  unsavedBytes: number;
}

export interface ResultCache {
  readonly folder: string;
  /** The bytes of result `index` (0-based, in result order) of `executionId`: a file path, or null when not kept. */
  get(executionId: string, index: number): Promise<string | null>;
  /** Streams a downloaded result in; its path. Body errors pass through; file errors are ResultCacheUnavailable. */
  put(executionId: string, index: number, body: AsyncIterable<Uint8Array>): Promise<string>;
  /** The result is on disk under its final name: its bytes become evictable. */
  markSaved(executionId: string, index: number): Promise<void>;
  /** Forgets an entry (its bytes did not decode). */
  drop(executionId: string, index: number): Promise<void>;
  usage(): Promise<ResultCacheUsage>;
  setMaxBytes(maxBytes: number): void;
}

interface Entry { size: number; mtimeMs: number; saved: boolean }

const keyOf = (executionId: string) => (/^[A-Za-z0-9_-]{1,100}$/.test(executionId)
  ? executionId : createHash('sha256').update(executionId).digest('hex'));
const baseOf = (executionId: string, index: number) => `${keyOf(executionId)}.${index}`;
const ENTRY = /^(.+\.\d+)\.(unsaved|saved)$/;

const opened = new Map<string, ResultCache>();

/** The one cache of a state folder (every part of the engine that asks for it shares its accounting). */
export function openResultCache(stateDir: string, options: { maxBytes?: number } = {}): ResultCache {
  const folder = join(stateDir, RESULT_CACHE_FOLDER);
  let cache = opened.get(folder);
  if (!cache) {
    cache = createResultCache(folder, options.maxBytes ?? DEFAULT_RESULT_CACHE_BYTES);
    opened.set(folder, cache);
  } else if (options.maxBytes !== undefined) {
    cache.setMaxBytes(options.maxBytes);
  }
  return cache;
}

function createResultCache(folder: string, initialMaxBytes: number): ResultCache {
  let maxBytes = initialMaxBytes;
  let index: Promise<Map<string, Entry>> | null = null;
  const entries = () => {
    index ??= load();
    return index;
  };
  async function load(): Promise<Map<string, Entry>> {
    const map = new Map<string, Entry>();
    let names: string[] = [];
    try {
      names = await readdir(folder);
    } catch {
      return map;
    }
    for (const name of names) {
      const path = join(folder, name);
      // A put a kill interrupted: never a complete entry.
      if (name.endsWith('.tmp')) { await outputFs.unlink(path).catch(() => undefined); continue; }
      const match = ENTRY.exec(name);
      const s = match ? await stat(path).catch(() => null) : null;
      if (match && s) map.set(name, { size: s.size, mtimeMs: s.mtimeMs, saved: match[2] === 'saved' });
    }
    return map;
  }
  const total = (map: Map<string, Entry>, onlyUnsaved = false) => {
    let bytes = 0;
    for (const e of map.values()) if (!onlyUnsaved || !e.saved) bytes += e.size;
    return bytes;
  };
  /** Saved entries go, oldest saved first, until the cache fits. */
  async function evict(map: Map<string, Entry>): Promise<void> {
    let bytes = total(map);
    if (bytes <= maxBytes) return;
    const saved = [...map.entries()].filter(([, e]) => e.saved).sort((a, b) => a[1].mtimeMs - b[1].mtimeMs);
    for (const [name, e] of saved) {
      if (bytes <= maxBytes) break;
      await outputFs.unlink(join(folder, name)).catch(() => undefined);
      map.delete(name);
      bytes -= e.size;
    }
  }
  const present = async (map: Map<string, Entry>, name: string): Promise<string | null> => {
    if (!map.has(name)) return null;
    const path = join(folder, name);
    if (await stat(path).then(() => true, () => false)) return path;
    map.delete(name);
    return null;
  };
  const cache: ResultCache = {
    folder,
    async get(executionId, i) {
      const map = await entries();
      const base = baseOf(executionId, i);
      return (await present(map, `${base}.unsaved`)) ?? present(map, `${base}.saved`);
    },
    async put(executionId, i, body) {
      const map = await entries();
      if (maxBytes <= 0) throw new ResultCacheUnavailable('the result cache is turned off (size 0)', undefined);
      await evict(map);
      if (total(map, true) >= maxBytes) {
        throw new ResultCacheUnavailable(`the result cache in ${folder} is full of results not saved yet`, 'ENOSPC');
      }
      const name = `${baseOf(executionId, i)}.unsaved`;
      const temp = join(folder, `${name}.${randomBytes(4).toString('hex')}.tmp`);
      const unavailable = (error: unknown) => new ResultCacheUnavailable(
        `the result cache in ${folder} could not be written (${errnoOf(error) ?? (error instanceof Error ? error.message : String(error))})`,
        errnoOf(error), { cause: error });
      let handle;
      try {
        await outputFs.mkdir(folder, { recursive: true });
        handle = await outputFs.open(temp, 'wx');
      } catch (error) {
        throw unavailable(error);
      }
      let size = 0;
      try {
        try {
          for await (const chunk of body) {
            try { await writeAll(handle, chunk); } catch (error) { throw unavailable(error); }
            size += chunk.byteLength;
          }
          try { await handle.sync(); } catch (error) { throw unavailable(error); }
        } finally {
          await handle.close().catch(() => undefined);
        }
        try { await outputFs.rename(temp, join(folder, name)); } catch (error) { throw unavailable(error); }
      } catch (error) {
        await outputFs.unlink(temp).catch(() => undefined);
        throw error;
      }
      map.set(name, { size, mtimeMs: Date.now(), saved: false });
      await evict(map);
      return join(folder, name);
    },
    async markSaved(executionId, i) {
      const map = await entries();
      const base = baseOf(executionId, i);
      const from = `${base}.unsaved`;
      const entry = map.get(from);
      if (!entry) return;
      const to = `${base}.saved`;
      try {
        await outputFs.rename(join(folder, from), join(folder, to));
        // Evicted by when it was saved, not when it was downloaded.
        const now = new Date();
        await utimes(join(folder, to), now, now).catch(() => undefined);
        map.delete(from);
        map.set(to, { ...entry, saved: true, mtimeMs: now.getTime() });
        await evict(map);
      } catch {
        // Stays "unsaved" (kept): the next markSaved or a manual clean-up settles it; never a reason to fail a save.
      }
    },
    async drop(executionId, i) {
      const map = await entries();
      for (const kind of ['unsaved', 'saved']) {
        const name = `${baseOf(executionId, i)}.${kind}`;
        if (map.delete(name)) await outputFs.unlink(join(folder, name)).catch(() => undefined);
      }
    },
    async usage() {
      const map = await entries();
      return { bytes: total(map), entries: map.size, unsavedBytes: total(map, true) };
    },
    setMaxBytes(next) {
      maxBytes = next;
    },
  };
  return cache;
}
