import { createRequire, syncBuiltinESMExports } from 'node:module';
import { FolderPoller } from '../../../main/core/watch/folder-poller';

// chokidar calls node:fs's watch (native) and watchFile (polling) through its ES module bindings; replacing them on
// the builtin module and syncing the bindings lets a test see every path chokidar asks the system to watch, and make
// the system's watch limit run out (ENOSPC, as Linux's inotify reports it) without touching the real limit. A polled
// folder's paths go to a FolderPoller instead of fs.watchFile (polled-watcher.ts): its watch() is counted as polled.

const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

export interface FsWatchSpy {
  /** Paths given to fs.watch / fs.watchFile (or FolderPoller.watch) since install, in order. */
  watched: string[];
  polled: string[];
  /** Of those, the paths given to fs.watchFile itself (libuv's per-path poll). */
  watchFiles: string[];
  restore(): void;
}

/** `limit`: fs.watch throws ENOSPC once this many watches were made (like inotify_add_watch past max_user_watches). */
export function spyOnFsWatch(options: { limit?: number } = {}): FsWatchSpy {
  const original = { watch: fs.watch, watchFile: fs.watchFile, pollerWatch: FolderPoller.prototype.watch };
  const spy: FsWatchSpy = {
    watched: [],
    polled: [],
    watchFiles: [],
    restore() {
      fs.watch = original.watch;
      fs.watchFile = original.watchFile;
      FolderPoller.prototype.watch = original.pollerWatch;
      syncBuiltinESMExports();
    },
  };
  fs.watch = ((path: string, ...rest: unknown[]) => {
    if (options.limit !== undefined && spy.watched.length >= options.limit) {
      throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), {
        code: 'ENOSPC', errno: -28, syscall: 'watch', path,
      });
    }
    spy.watched.push(String(path));
    return (original.watch as (...args: unknown[]) => ReturnType<typeof fs.watch>)(path, ...rest);
  }) as typeof fs.watch;
  fs.watchFile = ((path: string, ...rest: unknown[]) => {
    spy.polled.push(String(path));
    spy.watchFiles.push(String(path));
    return (original.watchFile as (...args: unknown[]) => ReturnType<typeof fs.watchFile>)(path, ...rest);
  }) as typeof fs.watchFile;
  FolderPoller.prototype.watch = function watch(this: FolderPoller, path, listener) {
    spy.polled.push(path);
    return original.pollerWatch.call(this, path, listener);
  };
  syncBuiltinESMExports();
  return spy;
}
