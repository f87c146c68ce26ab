import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalClosedError, openJournal } from '../../../main/core/journal';

// A journal used after close() refuses in JS: a libsql write there is a Rust panic that aborts the whole process
// (exit 134), which no engine path could catch. This file running to its end is the process surviving it.

describe('a closed journal', () => {
  let dir: string | undefined;
  afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); dir = undefined; });

  it('refuses a read and a write with JournalClosedError, and a second close does nothing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-journal-closed-'));
    const journal = openJournal(dir);
    expect(journal.listBatches()).toEqual([]); // cached statements exist, as in a running engine
    journal.updateBatch('b', { state: 'running' });
    journal.close();
    expect(() => journal.listBatches()).toThrow(JournalClosedError);
    expect(() => journal.getItem('item-0')).toThrow('the journal is closed');
    expect(() => journal.updateBatch('b', { state: 'paused' })).toThrow(JournalClosedError);
    expect(() => journal.updateItem('item-0', { reason: 'late' })).toThrow(JournalClosedError);
    expect(() => journal.recordAccepted('item-0', 'exe_1', 1, new Date().toISOString())).toThrow(JournalClosedError);
    expect(() => journal.close()).not.toThrow();
    expect(journal.path).toBe(join(dir, 'journal.db'));
  });
});
