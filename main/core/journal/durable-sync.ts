import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

// Group commit for the journal's few writes that money depends on (`submitting` before the POST, the execution id
// after it, a result's final name before the rename). They used to commit with synchronous=FULL: an fdatasync of
// the WAL on the event loop, 7 ms on a quiet SSD and 30–250 ms on a loaded or slow disk, three times a photo, during
// which nothing else of the engine ran. Now they commit like every other write (synchronous=NORMAL: the WAL frames
// are in the OS's page cache when the commit returns, so a killed process loses nothing) and the caller awaits
// whenDurable() before acting outside the process: one fdatasync of the WAL on libuv's thread pool makes every
// commit made before it durable against a power cut too, whatever its synchronous setting, because SQLite replays
// the WAL's checksummed frames up to the last commit on the next open. Callers that arrive while a sync runs share
// the next one (a sync that started before their commit may not cover it), so 32 submits in flight cost ~2 syncs.
// A checkpoint moving those frames into the database file fsyncs it first (synchronous=NORMAL does that), and the
// WAL is only rewritten from its start after such a checkpoint: a frame is always either in the WAL we sync or in a
// database file already synced.

export type SyncFile = (path: string) => Promise<void>;

/** fdatasync of `path` (opened for writing: Windows' FlushFileBuffers needs write access). */
export const datasyncFile: SyncFile = async (path) => {
  const handle = await open(path, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
};

/** The folder's own entry for a file created in it (POSIX); Windows cannot open folders and does not need it. */
async function syncFolder(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface DurableSync {
  /** Resolves once every commit made before the call is on disk (rejects if the disk refused the sync). */
  whenDurable(): Promise<void>;
  /** fdatasyncs started so far (bench and tests: how many callers shared one). */
  syncs(): number;
}

/**
 * `dbPath` is the journal's database; its WAL (`-wal`) is what holds recent commits. `syncFile` is the real
 * fdatasync unless a test needs to see when each sync starts and ends.
 */
export function createDurableSync(dbPath: string, syncFile: SyncFile = datasyncFile): DurableSync {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let folderSynced = false;
  let count = 0;

  const syncOnce = async () => {
    count += 1;
    try {
      await syncFile(`${dbPath}-wal`);
    } catch (error) {
      // No WAL (another process's checkpoint truncated it away, or WAL mode could not be set): the commits are then
      // in the database file itself.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await syncFile(dbPath);
    }
    // SQLite syncs the folder once after creating the WAL (so the file itself survives a power cut): so do we.
    if (!folderSynced) { await syncFolder(dirname(dbPath)); folderSynced = true; }
  };
  const start = (): Promise<void> => {
    const sync = syncOnce().finally(() => { if (running === sync) running = null; });
    running = sync;
    return sync;
  };
  return {
    whenDurable() {
      if (!running) return start();
      // The sync running now may have started before this caller's commit: wait for the next one, shared by every
      // caller that arrives meanwhile.
      queued ??= running.catch(() => undefined).then(() => { queued = null; return start(); });
      return queued;
    },
    syncs: () => count,
  };
}
