import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IgnoreRules } from './ignore';
import { handQuietFilesOver, pollSnapshot } from './snapshot-poller';
import { WalkSnapshot, type WalkedFile } from './walk-snapshot';
import { watchLocal } from './local-walk';
import { PolledWatcher, watchPolled } from './polled-watcher';
import { watchMissedDirs } from './missed-dirs';
import { volumeIsLocal } from '../images/volume-ctime';

export interface WatchTimings {
  /**
   * A file's size must stay unchanged this long before it is looked at (chokidar awaitWriteFinish). A JPEG or PNG
   * whose structure proves it whole goes on then; any other file waits for `unprovenStableMs` (complete-file.ts).
   */
  stabilityThresholdMs: number;
  /** How long a file whose format cannot prove it complete must stay unchanged in total before it is submitted. */
  unprovenStableMs: number;
  /** How often a file being written is re-checked. */
  writePollMs: number;
  /** Polling-mode folders (network shares): how often each new photo is looked at for changes (chokidar's binaryInterval). */
  pollingIntervalMs: number;
  /**
   * Polling-mode folders: how often each folder is looked at for new files (one stat per folder, chokidar's interval),
   * stretched on a large tree so at most MAX_FOLDER_STATS_PER_SECOND folders are stat'ed a second (folder-poller.ts).
   */
  newFilePollMs: number;
  /**
   * Polling-mode folders: every file already there at arm is re-stat'ed once in this long (snapshot-poller.ts), the
   * bound on noticing an old photo rewritten in place (which leaves its folder's mtime alone). Default 30 s; longer
   * past 7,500 files (250 lstats a second at most, so 400 s at 100,000: snapshot-poller.ts).
   */
  existingRecheckMs?: number;
  /**
   * Polling-mode folders: a new photo no poll has seen change for this long leaves its own poll (a stat every
   * `pollingIntervalMs`) for the re-check's slices, as if the walk had found it. Without it every photo that arrived
   * stayed at a stat every 2 s until the folder was armed again: a studio's 10,000 photos a day, 5,000 stats a second.
   */
  quietFileMs?: number;
}

/**
 * Defaults tuned for "photo appears → submitted within half a second": a JPEG/PNG written to its end is taken after
 * 200 ms of unchanged size (its own end marker and structure prove the rest, `format-complete.ts`); other formats
 * keep the 500 ms window that is enough for local copies and most sync clients. Slower writers (stalling network
 * copies) are caught by the completeness check in `complete-file.ts`, which defers JPEG/PNG files whose end marker
 * has not arrived yet. Polling folders find new files within `newFilePollMs` (each folder's mtime, stat'ed in bursts
 * on a thread of their own: no JavaScript runs on the main thread unless it changed; a round stretches past 250 ms
 * only beyond 1,000 folders, folder-poller.ts) while a new photo's own changes are polled at the slower `pollingIntervalMs`.
 */
export const DEFAULT_WATCH_TIMINGS: WatchTimings = {
  stabilityThresholdMs: 200, unprovenStableMs: 500, writePollMs: 50, pollingIntervalMs: 2_000, newFilePollMs: 250,
  existingRecheckMs: 30_000, quietFileMs: 60_000,
};

export interface FolderWatcherOptions {
  root: string;
  recursive: boolean;
  polling: boolean;
  ignored: IgnoreRules;
  timings: WatchTimings;
  /** A file finished being written: new (`add`) or rewritten in place (`change`). */
  onFile(path: string, kind: 'add' | 'change'): void;
  onError(error: Error): void;
  /** The watched root itself disappeared. */
  onRootGone(): void;
}

export interface FolderWatcher {
  /**
   * Resolves once the initial directory walk is done and events are being delivered — or once close() was called,
   * walk done or not (nothing is delivered then).
   */
  ready: Promise<void>;
  /** A file the initial walk found, as it found it, while no change to it has been seen (walk-snapshot.ts). */
  walked(path: string): WalkedFile | undefined;
  /** The walk lstat'ed synchronously (a local disk, not polled): the scan may check walked files the same way. */
  readonly syncStats: boolean;
  /** chokidar's watched directories and their entries (empty before the walk starts). */
  watched(): Record<string, string[]>;
  /** Watch more paths (a directory the walk missed). */
  add(paths: string | string[]): void;
  /** After ready: watch the sub-folders the walk missed (missed-dirs.ts); the arm's scan then takes what is in them. */
  watchMissedDirs(ignored: (path: string) => boolean): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * One chokidar watcher per hot folder. `ignoreInitial`: files already present are the scan's business (it applies
 * the existing-files policy and the ledger), the watcher only reports what arrives or changes afterwards — and so it
 * does not even watch them (walk-snapshot.ts): a folder holding an archive costs one watch per subfolder, not one
 * per file.
 */
export function startFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const { timings } = options;
  const root = resolve(options.root);
  const existing = new WalkSnapshot();
  // chokidar's close() removes every listener, 'ready' included: closed during its initial walk (a tree of thousands
  // of folders takes seconds), 'ready' never comes, and the arm waiting for it — and every close, disarm or shutdown
  // waiting for that arm — would wait for ever. close() ends the wait itself.
  let endWait: () => void = () => undefined;
  let closed = false;
  let stopPolling: () => void = () => undefined;
  let watcher: FSWatcher | null = null;
  let syncStats = false;
  const ready = new Promise<void>((resolve) => {
    endWait = resolve;
    // Synchronous lstats (local-walk.ts) only on a volume known to be a local disk: a share added without the
    // "Network drive" box would otherwise hold the whole process while it stalls (volume-ctime.ts, statfs f_type).
    void (options.polling ? Promise.resolve(false) : volumeIsLocal(root)).then((local) => {
      if (closed) return;
      syncStats = local;
      watcher = startChokidar(root, options, existing, local);
      const started = watcher;
      started.once('ready', async () => {
        // Polling: every folder the walk found has its baseline stat before the arm's scan reads the tree (a file
        // added between the two is then either in the scan or a change of its folder).
        if (started instanceof PolledWatcher) await started.poller.settled();
        existing.walked();
        // Polling: an old photo rewritten in place changes no folder's mtime; its own stat is looked at in slices.
        if (options.polling && !closed) {
          const stopRecheck = pollSnapshot(existing, timings.existingRecheckMs ?? DEFAULT_WATCH_TIMINGS.existingRecheckMs!, (path) => {
            options.onFile(path, 'change');
            // From now on chokidar's own, as any new file (ignoreInitial: adding it reports nothing).
            started.add(path);
          });
          // …and a new photo that has settled goes the other way: from its own poll to the re-check's slices.
          const stopHandover = started instanceof PolledWatcher
            ? handQuietFilesOver(started, existing, timings.quietFileMs ?? DEFAULT_WATCH_TIMINGS.quietFileMs!)
            : () => undefined;
          stopPolling = () => {
            stopRecheck();
            stopHandover();
          };
        }
        resolve();
      });
    });
  });
  return {
    ready,
    walked: (path) => existing.get(path),
    get syncStats() {
      return syncStats;
    },
    watched: () => watcher?.getWatched() ?? {},
    add(paths) {
      watcher?.add(paths);
    },
    watchMissedDirs(ignored) {
      return watchMissedDirs(this, root, ignored);
    },
    close: () => {
      closed = true;
      stopPolling();
      endWait();
      return watcher?.close() ?? Promise.resolve();
    },
  };
}

function startChokidar(root: string, options: FolderWatcherOptions, existing: WalkSnapshot, syncStats: boolean): FSWatcher {
  const { timings } = options;
  const watcher: FSWatcher = (options.polling ? watchPolled : syncStats ? watchLocal : watch)(root, {
    persistent: true,
    ignoreInitial: true,
    followSymlinks: false,
    depth: options.recursive ? undefined : 0,
    usePolling: options.polling,
    // Polling: `interval` is what folders are polled at, `binaryInterval` what a new photo is — by one thread of
    // stats in bursts (polled-watcher.ts, folder-poller.ts), the folders' rate capped, not one fs.watchFile a path.
    interval: timings.newFilePollMs,
    binaryInterval: timings.pollingIntervalMs,
    ignored: (path: string, stats?: Stats) => options.ignored(path) || existing.skip(path, stats),
    ignorePermissionErrors: true,
    awaitWriteFinish: { stabilityThreshold: timings.stabilityThresholdMs, pollInterval: timings.writePollMs },
  });
  watcher.on('add', (path) => options.onFile(path, 'add'));
  watcher.on('change', (path) => options.onFile(path, 'change'));
  // A name created, deleted or renamed in a watched folder (inotify's 'rename'): if it is a file the walk saw, it may
  // come back with the same size, mtime and inode (moved out and in again), and is then new to the watcher.
  watcher.on('raw', (event, name, details) => {
    const dir = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (event === 'rename' && name && typeof dir === 'string') existing.touched(join(dir, name));
  });
  watcher.on('unlinkDir', (path) => {
    if (path === root) options.onRootGone();
  });
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  return watcher;
}
