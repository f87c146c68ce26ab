import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Review of 28a31de (journal/durable-sync.ts syncFolder): the folder's fsync is part of every whenDurable() until it
// once succeeds, and its failure rejects the caller. Some file systems refuse fsync on a directory (EINVAL: CIFS/SMB
// mounts on older kernels, vboxsf, some network or virtual file systems a state folder can live on); SQLite itself
// ignores a failed directory sync (os_unix.c unixSync: full_fsync(dirfd) result unused). Here every submission then
// fails (`refused`, "EINVAL") and every accepted item is parked — for good, since folderSynced never becomes true.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: async (path: string, flags?: string) => {
      const handle = await real.open(path, flags);
      if (statSync(path).isDirectory()) {
        return Object.assign(Object.create(Object.getPrototypeOf(handle)), handle, {
          sync: () => Promise.reject(Object.assign(new Error('EINVAL: invalid argument, fsync'), { code: 'EINVAL' })),
          close: () => handle.close(),
        });
      }
      return handle;
    },
  };
});

const { createDurableSync } = await import('../../../main/core/journal/durable-sync');
const { openJournal } = await import('../../../main/core/journal');
const { makeTempDir } = await import('../engine/helpers');

describe('durable sync on a file system that refuses fsync on a folder', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => { await cleanup?.(); cleanup = null; });

  it('still makes a committed write durable (the WAL is synced; the folder sync is best effort, as in SQLite)', async () => {
    const dir = await makeTempDir('batchroom-durable-dir-');
    const journal = openJournal(join(dir.path, 'state'));
    cleanup = async () => { journal.close(); await dir.cleanup(); };
    journal.ledgerRecord({
      key: 'k1', contentHash: 'h', workflowId: 'w', parametersHash: 'p', sourcePath: '/x.jpg', outcome: 'saved', outputs: [],
      executionId: 'e1', itemId: null, hotFolderId: null,
    });
    await expect(journal.whenDurable()).resolves.toBeUndefined();
    const sync = createDurableSync(journal.path);
    await expect(sync.whenDurable()).resolves.toBeUndefined();
  });
});
