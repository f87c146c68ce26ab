import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '../media/inside-root';
import type { IgnoreRules } from './ignore';
import { NewFilePoller, ReportOnce } from './new-file-poller';

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
  /** Polling-mode folders (network shares): how often each known file is looked at for changes. */
  pollingIntervalMs: number;
  /** Polling-mode folders: how often the folders' listings are looked at for new files (one stat per folder). */
  newFilePollMs: number;
}

/**
 * Defaults tuned for "photo appears → submitted within half a second": a JPEG/PNG written to its end is taken after
 * 200 ms of unchanged size (its own end marker and structure prove the rest, `format-complete.ts`); other formats
 * keep the 500 ms window that is enough for local copies and most sync clients. Slower writers (stalling network
 * copies) are caught by the completeness check in `complete-file.ts`, which defers JPEG/PNG files whose end marker
 * has not arrived yet. Polling folders find new files within `newFilePollMs` (new-file-poller.ts) while each
 * file's own changes are polled at the slower `pollingIntervalMs`.
 */
export const DEFAULT_WATCH_TIMINGS: WatchTimings = {
  stabilityThresholdMs: 200, unprovenStableMs: 500, writePollMs: 50, pollingIntervalMs: 2_000, newFilePollMs: 250,
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
  close(): Promise<void>;
}

/**
 * One chokidar watcher per hot folder. `ignoreInitial`: files already present are the scan's business (it applies
 * the existing-files policy and the ledger), the watcher only reports what arrives or changes afterwards.
 */
export function startFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const { timings } = options;
  const root = resolve(options.root);
  let poller: NewFilePoller | null = null;
  const watcher: FSWatcher = watch(root, {
    persistent: true,
    ignoreInitial: true,
    followSymlinks: false,
    depth: options.recursive ? undefined : 0,
    usePolling: options.polling,
    interval: timings.pollingIntervalMs,
    binaryInterval: timings.pollingIntervalMs,
    ignored: (path: string) => options.ignored(path),
    ignorePermissionErrors: true,
    awaitWriteFinish: { stabilityThreshold: timings.stabilityThresholdMs, pollInterval: timings.writePollMs },
  });
  if (!options.polling) {
    watcher.on('add', (path) => options.onFile(path, 'add'));
    watcher.on('change', (path) => options.onFile(path, 'change'));
  } else {
    const once = new ReportOnce(60_000);
    const report = (path: string, kind: 'add' | 'change', stats?: Stats) =>
      void once.pass(path, stats).then((pass) => pass && options.onFile(path, kind));
    watcher.on('add', (path, stats) => report(path, 'add', stats));
    watcher.on('change', (path, stats) => report(path, 'change', stats));
    poller = new NewFilePoller({
      watched: () => Object.fromEntries(Object.entries(watcher.getWatched())
        .filter(([dir]) => (options.recursive ? isInside(dir, root) : dir === root))),
      ignored: (path) => options.ignored(path),
      intervalMs: timings.newFilePollMs,
      writePollMs: timings.writePollMs,
      stabilityThresholdMs: timings.stabilityThresholdMs,
      onFile: (path) => report(path, 'add'),
    });
  }
  watcher.on('unlinkDir', (path) => {
    if (path === root) options.onRootGone();
  });
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  // chokidar's close() removes every listener, 'ready' included: closed during its initial walk (a tree of thousands
  // of folders takes seconds), 'ready' never comes, and the arm waiting for it — and every close, disarm or shutdown
  // waiting for that arm — would wait for ever. close() ends the wait itself.
  let closed = false;
  let endWait: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    endWait = resolve;
    watcher.once('ready', () => resolve());
  }).then(() => (closed ? undefined : poller?.start()));
  return {
    ready,
    close: () => {
      closed = true;
      poller?.close();
      endWait();
      return watcher.close();
    },
  };
}
