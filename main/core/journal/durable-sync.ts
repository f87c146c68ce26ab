import { realpathSync } from 'node:fs';
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

export interface DurableSyncOptions {
  /**
   * True while the journal is open in WAL mode: its WAL file then exists (SQLite keeps it while a connection is open),
   * so a missing WAL means we are syncing the wrong file and must not vouch for anything. Defaults to true.
   */
  walExpected?: () => boolean;
  /**
   * wal_checkpoint(TRUNCATE) on the journal's connection: true when it completed (every frame moved into the database
   * file, synced by SQLite, and the WAL cut to nothing). The only way out after a refused sync, short of reopening.
   */
  checkpoint?: () => boolean;
  /** Told when the folder's fsync was refused (best effort, as in SQLite). */
  warn?: (message: string, error: unknown) => void;
}

/**
 * `dbPath` is the journal's database; its WAL (`-wal`) is what holds recent commits. `syncFile` is the real
 * fdatasync unless a test needs to see when each sync starts and ends.
 */
export function createDurableSync(dbPath: string, syncFile: SyncFile = datasyncFile, options: DurableSyncOptions = {}): DurableSync {
  const walExpected = options.walExpected ?? (() => true);
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let folderSynced = false;
  let count = 0;
  // SQLite resolves a symlinked database to its real path and keeps the WAL beside the REAL file: the `-wal` beside
  // the link does not exist. Resolved once (the journal does not move while open); a path that cannot be resolved
  // yet is tried again on the next sync.
  let realDb: string | null = null;
  // fsyncgate: after a refused fdatasync Linux reports the error once and marks the pages clean; the frames of that
  // commit (synchronous=NORMAL: already committed) are never written again, so a later sync "succeeds" over a hole
  // and a power cut drops every commit after it. Once a sync failed, nothing is vouched for until a checkpoint has
  // moved the WAL into the database file and truncated it (or the journal is reopened: a new DurableSync).
  let failed: unknown = null;

  // Synchronous, once: a cheap lstat chain, and the first sync then starts in the caller's tick.
  const resolveDb = (): string => {
    if (realDb) return realDb;
    try {
      realDb = realpathSync(dbPath);
      return realDb;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return dbPath;
      throw error;
    }
  };

  const syncOnce = async () => {
    count += 1;
    const db = resolveDb();
    try {
      await syncFile(`${db}-wal`);
    } catch (error) {
      // No WAL is acceptable only when the journal is closed (SQLite checkpointed and removed it) or not in WAL mode:
      // the commits are then in the database file itself. Otherwise the WAL we cannot find holds them.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || walExpected()) throw error;
      await syncFile(db);
    }
    // SQLite syncs the folder once after creating the WAL (so the file itself survives a power cut): so do we, best
    // effort as SQLite does — some file systems (vboxsf, older CIFS) refuse fsync on a folder with EINVAL for good.
    if (!folderSynced) {
      folderSynced = true;
      await syncFolder(dirname(db)).catch((error: unknown) => options.warn?.('journal folder fsync refused', error));
    }
  };
  const guarded = async () => {
    if (failed !== null) {
      let recovered = false;
      try { recovered = options.checkpoint?.() ?? false; } catch { recovered = false; }
      if (!recovered) throw new Error(`journal not durable: an earlier fsync of its WAL failed (${String((failed as Error)?.message ?? failed)}); reopen the journal`);
      failed = null;
    }
    try {
      await syncOnce();
    } catch (error) {
      failed = error;
      throw error;
    }
  };
  const start = (): Promise<void> => {
    const sync = guarded().finally(() => { if (running === sync) running = null; });
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
