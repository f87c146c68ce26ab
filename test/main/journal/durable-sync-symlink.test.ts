import { closeSync, existsSync, mkdirSync, openSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDurableSync, datasyncFile } from '../../../main/core/journal/durable-sync';
import { openJournal, type Journal } from '../../../main/core/journal';
import { makeTempDir, type TempDir } from '../engine/helpers';

// Review of 28a31de (journal/durable-sync.ts): whenDurable() syncs `${dbPath}-wal` by the path the journal was opened
// with, and takes ENOENT as "no WAL: the commits are in the database file" and syncs that instead. SQLite resolves a
// symlinked database to its real path and keeps the WAL beside the REAL file, so with <state>/journal.db a symlink
// (the journal moved to another disk and linked back) `<state>/journal.db-wal` does not exist: every whenDurable()
// syncs the database file, never the WAL holding `submitting`, resolves, and the POST leaves with `submitting` only
// in the page cache. A power cut then brings the item back `encoding` → pending → sent and paid again.

describe('durable sync when journal.db is a symlink', () => {
  let dir: TempDir | null = null;
  let journal: Journal | null = null;
  afterEach(async () => { journal?.close(); journal = null; await dir?.cleanup(); dir = null; });

  it('syncs the WAL SQLite actually writes', async () => {
    dir = await makeTempDir('batchroom-durable-link-');
    const state = join(dir.path, 'state');
    const elsewhere = join(dir.path, 'other-disk');
    mkdirSync(state); mkdirSync(elsewhere);
    closeSync(openSync(join(elsewhere, 'journal.db'), 'a', 0o600));
    symlinkSync(join(elsewhere, 'journal.db'), join(state, 'journal.db'));
    journal = openJournal(state);
    journal.ledgerRecord({
      key: 'k1', contentHash: 'h', workflowId: 'w', parametersHash: 'p', sourcePath: '/x.jpg', outcome: 'saved', outputs: [],
      executionId: 'e1', itemId: null, hotFolderId: null,
    });
    const realWal = `${realpathSync(join(state, 'journal.db'))}-wal`;
    expect(existsSync(realWal)).toBe(true); // where the commit is
    const synced: string[] = [];
    const sync = createDurableSync(journal.path, async (path) => { await datasyncFile(path); synced.push(realpathSync(path)); });
    await sync.whenDurable();
    expect(synced).toContain(realWal);
  });
});
