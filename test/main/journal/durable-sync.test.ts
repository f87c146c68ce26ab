import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDurableSync } from '../../../main/core/journal/durable-sync';
import { makeTempDir, type TempDir } from '../engine/helpers';

// Group commit (journal/durable-sync.ts): a caller's promise resolves only after an fdatasync that STARTED after its
// call (one already running may have begun before its commit), and the callers arriving during one sync share the
// next. The file syncs are recorded by an injected syncFile so their starts and ends can be ordered by hand.

interface Pending { path: string; done: () => void; fail: (error: Error) => void }

function manualSync() {
  const started: Pending[] = [];
  const syncFile = (path: string) => new Promise<void>((resolve, reject) => { started.push({ path, done: resolve, fail: reject }); });
  return { started, syncFile };
}

const settled = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); };

describe('durable sync (group commit of the journal\'s WAL)', () => {
  let dir: TempDir | null = null;
  afterEach(async () => {
    await dir?.cleanup();
    dir = null;
  });

  it('waits for a sync that started after the call, and shares it among every caller that arrived meanwhile', async () => {
    dir = await makeTempDir('batchroom-durable-');
    const { started, syncFile } = manualSync();
    const sync = createDurableSync(join(dir.path, 'journal.db'), syncFile);
    const order: string[] = [];
    const first = sync.whenDurable().then(() => order.push('first'));
    await settled();
    expect(started.map((s) => s.path)).toEqual([join(dir.path, 'journal.db-wal')]);
    // Ten commits while the first sync runs: none may be answered by it.
    const later = Array.from({ length: 10 }, (_, i) => sync.whenDurable().then(() => order.push(`later${i}`)));
    started[0]!.done();
    await first;
    expect(order).toEqual(['first']);
    await settled();
    expect(started).toHaveLength(2); // one sync for the ten, started only after the first ended
    started[1]!.done();
    await Promise.all(later);
    expect(order).toHaveLength(11);
    expect(sync.syncs()).toBe(2);
  });

  it('a refused sync rejects its callers and every later one until a checkpoint completes, then syncs again', async () => {
    dir = await makeTempDir('batchroom-durable-');
    const { started, syncFile } = manualSync();
    let checkpointDone = false;
    let checkpoints = 0;
    const sync = createDurableSync(join(dir.path, 'journal.db'), syncFile, { checkpoint: () => { checkpoints += 1; return checkpointDone; } });
    const first = sync.whenDurable();
    await settled();
    started[0]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(first).rejects.toThrow(/EIO/);
    // The checkpoint could not complete (a reader holds the WAL): refused without a sync that could only lie.
    await expect(sync.whenDurable()).rejects.toThrow(/earlier fsync/);
    expect(started).toHaveLength(1);
    expect(checkpoints).toBe(1);
    checkpointDone = true;
    const again = sync.whenDurable();
    await settled();
    expect(started).toHaveLength(2);
    started[1]!.done();
    await again;
    expect(checkpoints).toBe(2);
  });

  it('a missing WAL is the database file\'s turn only when the journal is closed or not in WAL mode', async () => {
    dir = await makeTempDir('batchroom-durable-');
    const db = join(dir.path, 'journal.db');
    const synced: string[] = [];
    const syncFile = async (path: string) => {
      if (path.endsWith('-wal')) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
      synced.push(path);
    };
    let open = true;
    const sync = createDurableSync(db, syncFile, { walExpected: () => open, checkpoint: () => true });
    await expect(sync.whenDurable()).rejects.toThrow(/ENOENT/);
    expect(synced).toEqual([]);
    open = false;
    await sync.whenDurable();
    expect(synced).toEqual([db]);
  });
});
