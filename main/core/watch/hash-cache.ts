import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Remembers content hashes by (inode, size, mtime), so the scan after a restart does not re-read every photo a
 * folder has kept (5,000 processed originals would otherwise be hashed again at each start). Only scans use it:
 * a watcher event always re-hashes, since a rewrite may keep size and, on coarse file systems, mtime.
 */
export interface HashCacheStore {
  load(folderId: string): Promise<Map<string, string>>;
  add(folderId: string, key: string, hash: string): Promise<void>;
  clear(folderId: string): Promise<void>;
}

export function hashCacheKey(stats: { ino: number; size: number; mtimeMs: number }): string {
  return `${stats.ino}:${stats.size}:${Math.trunc(stats.mtimeMs)}`;
}

const safeName = (folderId: string) => folderId.replace(/[^A-Za-z0-9_-]/g, '_');

/** Append-only `<key>\t<hash>` lines; rewritten compactly on load when mostly superseded lines remain. */
export function createFileHashCache(dir: string): HashCacheStore {
  const file = (folderId: string) => join(dir, `${safeName(folderId)}.hashes`);
  return {
    async load(folderId) {
      const map = new Map<string, string>();
      let lines: string[];
      try {
        lines = (await readFile(file(folderId), 'utf8')).split('\n');
      } catch {
        return map;
      }
      for (const line of lines) {
        const tab = line.indexOf('\t');
        if (tab > 0 && line.length - tab === 65) map.set(line.slice(0, tab), line.slice(tab + 1));
      }
      if (lines.length > map.size * 2 + 1_000) {
        await writeFile(file(folderId), [...map].map(([k, h]) => `${k}\t${h}\n`).join('')).catch(() => undefined);
      }
      return map;
    },
    async add(folderId, key, hash) {
      await mkdir(dir, { recursive: true });
      await appendFile(file(folderId), `${key}\t${hash}\n`);
    },
    async clear(folderId) {
      await rm(file(folderId), { force: true });
    },
  };
}

export function createMemoryHashCache(): HashCacheStore {
  const maps = new Map<string, Map<string, string>>();
  return {
    load: async (folderId) => new Map(maps.get(folderId) ?? []),
    add: async (folderId, key, hash) => {
      const map = maps.get(folderId) ?? new Map<string, string>();
      map.set(key, hash);
      maps.set(folderId, map);
    },
    clear: async (folderId) => {
      maps.delete(folderId);
    },
  };
}
