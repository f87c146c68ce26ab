import { watch, type FSWatcher } from 'chokidar';
import type { IgnoreRules } from './ignore';

export interface WatchTimings {
  /** A file's size must stay unchanged this long before it counts as written (chokidar awaitWriteFinish). */
  stabilityThresholdMs: number;
  /** How often a file being written is re-checked. */
  writePollMs: number;
  /** Polling interval of polling-mode folders (network shares). */
  pollingIntervalMs: number;
}

/**
 * Defaults tuned for "photo appears → submitted within about a second": 500 ms of unchanged size is enough for local
 * copies and most sync clients; slower writers (stalling network copies) are caught by the completeness check in
 * `complete-file.ts`, which defers JPEG/PNG files whose end marker has not arrived yet.
 */
export const DEFAULT_WATCH_TIMINGS: WatchTimings = { stabilityThresholdMs: 500, writePollMs: 100, pollingIntervalMs: 2_000 };

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
  /** Resolves once the initial directory walk is done and events are being delivered. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * One chokidar watcher per hot folder. `ignoreInitial`: files already present are the scan's business (it applies
 * the existing-files policy and the ledger), the watcher only reports what arrives or changes afterwards.
 */
export function startFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const { root, timings } = options;
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
  watcher.on('add', (path) => options.onFile(path, 'add'));
  watcher.on('change', (path) => options.onFile(path, 'change'));
  watcher.on('unlinkDir', (path) => {
    if (path === root) options.onRootGone();
  });
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { ready, close: () => watcher.close() };
}
