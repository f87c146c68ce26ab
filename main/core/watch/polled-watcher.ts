import { FSWatcher, type ChokidarOptions } from 'chokidar';
import { basename, dirname, resolve } from 'node:path';
import { FolderPoller, MAX_FOLDER_STATS_PER_SECOND, type PolledStats } from './folder-poller';

// chokidar polls (usePolling) with one fs.watchFile per watched path: per folder at `interval`, per new photo at
// `binaryInterval`. Each is a libuv timer and a stat on the thread pool, waking the main loop once per path and
// poll: a 100k archive's 1,000 folders at 250 ms was 4,000 wake-ups a second and 4.3–6.3 % of a core idle (goal
// ≤ 5 %). Here chokidar walks, reads and reports as always, but the one place it starts a poll
// (NodeFsHandler._watchWithNodeFs) hands the path to a FolderPoller instead: one thread stats every path in a burst
// per round, with a cap on folder stats a second (folder-poller.ts), and the main loop only hears of a change.

type RawListener = (path: string, stats?: unknown) => void | Promise<void>;

/** chokidar's watcher with its polls made by a FolderPoller (see above); chokidar is pinned exactly (`_nodeFsHandler` is its). */
export class PolledWatcher extends FSWatcher {
  readonly poller: FolderPoller;
  /** The path chokidar named each polled path by (its key for closing the path's watch), by the path polled. */
  private readonly namedAs = new Map<string, string>();

  constructor(options: ChokidarOptions, maxFolderStatsPerSecond = MAX_FOLDER_STATS_PER_SECOND) {
    super({ ...options, usePolling: true });
    const poller = new FolderPoller({
      folderMs: options.interval ?? 100, fileMs: options.binaryInterval ?? 300, maxFolderStatsPerSecond,
      // Once closed, chokidar has removed every listener, and an 'error' emitted with none throws: a poll thread
      // failing while (or after) its folder closes would have been an uncaught exception in main. No one to tell.
      onError: (error) => {
        if (this.listenerCount('error') > 0) this.emit('error', error);
      },
    });
    this.poller = poller;
    // chokidar reads a folder (_handleRead) and only then starts its poll: a file written into a new sub-folder in
    // between would be in the poll's first stat, and never reported. After the initial walk (whose files are the arm
    // scan's) such a folder is read once more right after that first stat — one readdir per folder made later.
    let walked = false;
    this.once('ready', () => {
      walked = true;
    });
    // What chokidar's _watchWithNodeFs does with usePolling (handler.js, setFsWatchFileListener), but polled by the
    // poller: the path is entered in its parent's listing, and the listener hears of a change in size, a newer mtime,
    // or the path being gone (zeros) — the same filter chokidar puts on fs.watchFile's callback.
    this._nodeFsHandler._watchWithNodeFs = (path: string, listener?: RawListener) => {
      this._getWatchedDir(dirname(path)).add(basename(path));
      const fullPath = resolve(path);
      this.namedAs.set(fullPath, path);
      const stop = poller.watch(fullPath, (curr, prev) => {
        this._emitRaw('change', fullPath, { curr, prev });
        if (curr.size !== prev.size || curr.mtimeMs > prev.mtimeMs || curr.mtimeMs === 0) void listener?.(path, curr);
      }, walked);
      return () => {
        this.namedAs.delete(fullPath);
        stop();
      };
    };
  }

  /**
   * Stops polling the files no poll has seen change for `quietMs`: each is handed to `adopt` with the stats it was
   * last compared against, then chokidar lets it go as if it had never listed it (no 'unlink'). A later read of its
   * folder finds it again, and reports it unless `ignored` skips it — which the walk snapshot does while it is the
   * file adopted (folder-watcher.ts). Resolves with how many were let go.
   */
  async releaseQuietFiles(quietMs: number, adopt: (path: string, stats: PolledStats) => void): Promise<number> {
    const files = await this.poller.releaseQuiet(quietMs);
    for (const { path: fullPath, stats } of files) {
      const path = this.namedAs.get(fullPath) ?? fullPath;
      adopt(path, stats);
      this._closePath(path);
    }
    return files.length;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.poller.close();
  }
}

/** chokidar's watch(), polling through a FolderPoller. */
export function watchPolled(root: string, options: ChokidarOptions): PolledWatcher {
  const watcher = new PolledWatcher(options);
  watcher.add(root);
  return watcher;
}
