import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDurableSync } from '../../../main/core/journal/durable-sync';
import { openJournal, type Journal } from '../../../main/core/journal';
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
  let journal: Journal | null = null;
  afterEach(async () => {
    journal?.close();
    journal = null;
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

  it('a refused sync rejects its callers, and the next caller gets a sync of its own', async () => {
    dir = await makeTempDir('batchroom-durable-');
    const { started, syncFile } = manualSync();
    const sync = createDurableSync(join(dir.path, 'journal.db'), syncFile);
    const first = sync.whenDurable();
    await settled();
    started[0]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(first).rejects.toThrow(/EIO/);
    const again = sync.whenDurable();
    await settled();
    expect(started).toHaveLength(2);
    started[1]!.done();
    await again;
  });

  it('a real journal: a plain write then whenDurable() syncs the WAL that holds it (and works after close)', async () => {
    dir = await makeTempDir('batchroom-durable-');
    journal = openJournal(join(dir.path, 'state'));
    journal.ledgerRecord({
      key: 'k1', contentHash: 'h', workflowId: 'w', parametersHash: 'p', sourcePath: '/x.jpg', outcome: 'saved', outputs: [],
      executionId: 'e1', itemId: null, hotFolderId: null,
    });
    const wal = `${journal.path}-wal`;
    expect(existsSync(wal) && statSync(wal).size > 0).toBe(true);
    await journal.whenDurable();
    journal.close();
    // After close SQLite checkpointed and removed the WAL: the database file itself is synced instead.
    await journal.whenDurable();
    journal = null;
  });
});
