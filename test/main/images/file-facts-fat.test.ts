import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// FAT/exFAT (SD cards, USB drives): the system reports the modification time as the change time. Simulated here by
// making every stat (path and open handle) say ctime = mtime, as such a volume does, and statfs say vfat (Linux's
// MSDOS_SUPER_MAGIC) — a freshly written file on ext4 also has ctime = mtime, and keeps its store rows. A FAT card is a
// local disk: the identity stat is then the synchronous lstat (identity-stat.ts), which says the same.
const fat = vi.hoisted(() => <T extends { mtimeNs?: bigint; ctimeNs?: bigint; mtimeMs: number | bigint; ctimeMs: number | bigint }>(s: T): T => {
  if (typeof s.mtimeNs === 'bigint') Object.assign(s, { ctimeNs: s.mtimeNs, ctimeMs: s.mtimeMs, ctime: (s as unknown as { mtime: Date }).mtime });
  return s;
});
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const lstatSync = ((...args: Parameters<typeof real.lstatSync>) => fat(real.lstatSync(...args) as never)) as typeof real.lstatSync;
  return { ...real, lstatSync, default: { ...real, lstatSync } };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    statfs: async (...args: Parameters<typeof real.statfs>) => Object.assign(await real.statfs(...args), { type: 0x4d44 }),
    stat: async (...args: Parameters<typeof real.stat>) => fat((await real.stat(...args)) as never),
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      const original = handle.stat.bind(handle);
      (handle as unknown as { stat: unknown }).stat = async (...a: Parameters<typeof original>) => fat((await original(...a)) as never);
      return handle;
    },
  };
});

const { createFileFacts, fileFactReads } = await import('../../../main/core/images/file-facts');
const { openFactsStore } = await import('../../../main/core/images/file-facts-store');
const { hashFile } = await import('../../../main/core/images/hash');

describe('file facts on a FAT/exFAT card (review of issue 34)', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-fat-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a photo edited in place (same size, date kept: exiftool -P, XMP padding) is not answered with its old hash by the next run', async () => {
    const state = join(dir, 'state');
    const path = join(dir, 'DSC00001.JPG');
    const date = new Date('2026-05-01T10:00:00.000Z');
    await writeFile(path, 'rating=3');
    await utimes(path, date, date);
    const first = createFileFacts({ dir: state, now: () => Date.now() + 10_000 });
    const before = await first.contentHash(path); // the estimate/run of the shoot: paid, in the done ledger under `before`
    first.close();

    await writeFile(path, 'rating=5'); // same inode, same size
    await utimes(path, date, date);

    // The next run, a day later: the old code forgot every fact after 10 minutes for exactly this case.
    const next = createFileFacts({ dir: state, now: () => Date.now() + 86_400_000 });
    const after = await next.contentHash(path);
    next.close();
    expect(after).toBe(await hashFile(path));
    expect(after).not.toBe(before);
  });

  it('keeps no row of such a file in the store, and trusts what it read for 10 minutes at most', async () => {
    const state = join(dir, 'state');
    const path = join(dir, 'DSC00002.JPG');
    await writeFile(path, 'rating=1');
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    let clock = Date.now();
    const facts = createFileFacts({ dir: state, now: () => clock });
    const reads = fileFactReads();
    const hash = await facts.contentHash(path);
    expect(await facts.contentHash(path)).toBe(hash); // Start moments after the estimate: nothing read again
    expect(fileFactReads() - reads).toBe(1);
    clock += 11 * 60_000;
    await facts.contentHash(path);
    expect(fileFactReads() - reads).toBe(2);
    facts.close();
    const store = openFactsStore(state)!;
    expect(store.get(path)).toBeUndefined();
    store.close();
  });
});
