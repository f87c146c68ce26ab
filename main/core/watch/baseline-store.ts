import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaselineStore } from './ports';

/** `size:mtimeMs` — survives renames and moves inside the folder, changes when the file is rewritten. */
export function fingerprintOf(stats: { size: number; mtimeMs: number }): string {
  return `${stats.size}:${Math.trunc(stats.mtimeMs)}`;
}

function safeName(folderId: string): string {
  return folderId.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * One file per folder under `<stateDir>/hotfolders/`, read on start. Appends (a crash mid-write loses at most the
 * last line), and a whole new set written aside and renamed over the old one (a fresh arm's scan, a review decision):
 * a crash before the rename leaves the old set — with its "fresh" marker — so the next start applies the policy again.
 */
export function createFileBaselineStore(dir: string): BaselineStore {
  const file = (folderId: string) => join(dir, `${safeName(folderId)}.baseline`);
  return {
    async load(folderId) {
      try {
        const text = await readFile(file(folderId), 'utf8');
        return new Set(text.split('\n').filter((line) => line.length > 0));
      } catch {
        return new Set();
      }
    },
    async add(folderId, fingerprints) {
      if (fingerprints.length === 0) return;
      await mkdir(dir, { recursive: true });
      await appendFile(file(folderId), `${fingerprints.join('\n')}\n`);
    },
    async replace(folderId, fingerprints) {
      await mkdir(dir, { recursive: true });
      const next = `${file(folderId)}.next`;
      await writeFile(next, fingerprints.map((fp) => `${fp}\n`).join(''));
      await rename(next, file(folderId));
    },
    async clear(folderId) {
      await rm(file(folderId), { force: true });
    },
  };
}

export function createMemoryBaselineStore(): BaselineStore {
  const sets = new Map<string, Set<string>>();
  return {
    load: async (folderId) => new Set(sets.get(folderId) ?? []),
    add: async (folderId, fingerprints) => {
      const set = sets.get(folderId) ?? new Set<string>();
      for (const fp of fingerprints) set.add(fp);
      sets.set(folderId, set);
    },
    replace: async (folderId, fingerprints) => {
      sets.set(folderId, new Set(fingerprints));
    },
    clear: async (folderId) => {
      sets.delete(folderId);
    },
  };
}
