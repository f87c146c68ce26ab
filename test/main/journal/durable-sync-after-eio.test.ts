import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDurableSync } from '../../../main/core/journal/durable-sync';
import { makeTempDir, type TempDir } from '../engine/helpers';

// Review of 28a31de (journal/durable-sync.ts): after an fdatasync of the WAL fails (EIO), Linux marks the pages it
// could not write clean and reports the error once (errseq: a later open()+fdatasync on the same inode returns 0).
// The frames of that failed sync are COMMITTED in the WAL (synchronous=NORMAL), so SQLite never writes them again;
// a power cut then leaves a hole in the WAL, and recovery stops replaying at the first bad frame — dropping every
// commit after it, including a `submitting` that a later, "successful" whenDurable() vouched for before its POST:
// the item comes back `encoding`/`pending` and is sent (and paid) again. Under synchronous=FULL SQLite's own
// failed sync left the transaction uncommitted and its frames were rewritten by the next one; here nothing rewrites
// them. Once a sync has failed, no later whenDurable() may resolve (until the journal is reopened and the WAL
// checkpointed): fsyncgate, PostgreSQL's PANIC-on-fsync-failure rule.

interface Pending { path: string; done: () => void; fail: (error: Error) => void }

const settled = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); };

describe('durable sync after a refused fsync', () => {
  let dir: TempDir | null = null;
  afterEach(async () => { await dir?.cleanup(); dir = null; });

  it('does not vouch for later commits once an fsync of the WAL failed', async () => {
    dir = await makeTempDir('batchroom-durable-eio-');
    const started: Pending[] = [];
    const syncFile = (path: string) => new Promise<void>((resolve, reject) => { started.push({ path, done: resolve, fail: reject }); });
    const sync = createDurableSync(join(dir.path, 'journal.db'), syncFile);
    const first = sync.whenDurable();
    await settled();
    started[0]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(first).rejects.toThrow(/EIO/);
    // The next submission's `submitting`: the kernel now answers its fdatasync with 0 (the failed pages are "clean").
    const next = sync.whenDurable();
    next.catch(() => undefined); // asserted below, after the syncs are answered
    await settled();
    for (const s of started.slice(1)) s.done();
    await expect(next).rejects.toThrow();
  });
});
