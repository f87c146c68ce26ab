import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it, vi } from 'vitest';

// A real journal after a refused fsync of its WAL (durable-sync.ts, the fsyncgate rule): later whenDurable() calls
// are refused while the checkpoint that would clear the failure cannot complete (a reader holds the WAL), and vouch
// again once a wal_checkpoint(TRUNCATE) on the journal's connection has completed. The first datasync of a `-wal`
// is made to fail with EIO; every other sync is real.
let failNextWalSync = false;
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: async (path: string, flags?: string) => {
      const handle = await real.open(path, flags);
      if (!String(path).endsWith('-wal') || !failNextWalSync) return handle;
      failNextWalSync = false;
      return Object.assign(Object.create(Object.getPrototypeOf(handle)), handle, {
        datasync: () => Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })),
        close: () => handle.close(),
      });
    },
  };
});

const { openJournal } = await import('../../../main/core/journal');
const { makeTempDir } = await import('../engine/helpers');

const entry = (key: string) => ({
  key, contentHash: 'h', workflowId: 'w', parametersHash: 'p', sourcePath: '/x.jpg', outcome: 'saved' as const, outputs: [],
  executionId: `e-${key}`, itemId: null, hotFolderId: null,
});

describe('a real journal after a refused WAL fsync', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => { await cleanup?.(); cleanup = null; });

  it('refuses while a reader blocks the checkpoint, and vouches again once a TRUNCATE checkpoint completed', async () => {
    const dir = await makeTempDir('batchroom-durable-recover-');
    const journal = openJournal(join(dir.path, 'state'));
    const reader = new Database(journal.path);
    cleanup = async () => { reader.close(); journal.close(); await dir.cleanup(); };
    journal.ledgerRecord(entry('k1'));
    failNextWalSync = true;
    await expect(journal.whenDurable()).rejects.toThrow(/EIO/);
    // A reader's open snapshot keeps the checkpoint from completing: nothing may be vouched for.
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM items').get();
    journal.ledgerRecord(entry('k2'));
    await expect(journal.whenDurable()).rejects.toThrow(/earlier fsync/);
    reader.exec('COMMIT');
    journal.ledgerRecord(entry('k3'));
    await expect(journal.whenDurable()).resolves.toBeUndefined();
    expect((reader.prepare('SELECT COUNT(*) AS n FROM ledger').get() as { n: number }).n).toBe(3);
  });
});
