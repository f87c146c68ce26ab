import { FSWatcher, type ChokidarOptions } from 'chokidar';
import { lstatSync, type Stats } from 'node:fs';

// chokidar reads every directory it watches through readdirp with `alwaysStat`: one fs.promises lstat per entry.
// On a folder that already holds an archive that is 100,000 promises, their Stats objects and the garbage they
// leave (bench/scale-watch.ts: chokidar's walk was most of the arm's CPU, a fifth of it the garbage collector).
// The walk needs each file's lstat (walk-snapshot.ts keeps size, mtime and inode), but a synchronous lstat costs a
// tenth of a promised one on a local disk. So readdirp is asked for plain directory entries and each entry is
// lstat'ed synchronously just before chokidar's own filter looks at it — the same stats chokidar would have had,
// handed to the same `ignored` function. readdirp hands entries over in small batches between its asynchronous
// readdir calls, so the event loop still turns every few dozen entries.
//
// Only for folders on a volume known to be a local disk (volume-ctime.ts volumeIsLocal: statfs f_type, Linux only):
// on a network share a synchronous lstat would hold the whole process while the share answers (or stalls), so a
// polled folder, one on NFS/SMB/FUSE/9p (ticked "Network drive" or not), and any folder off Linux keep chokidar's
// asynchronous walk.

/** The readdirp entry as chokidar's filters read it (readdirp's own type is not exported). */
interface WalkEntry { fullPath: string; stats?: Stats }
type EntryFilter = (entry: WalkEntry) => boolean;

/** An entry's lstat put where chokidar expects it, then chokidar's filter; an entry that cannot be stat'ed is passed over. */
export function withSyncStats(filter: EntryFilter | undefined): EntryFilter {
  return (entry) => {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(entry.fullPath, { throwIfNoEntry: false });
    } catch {
      // EACCES and the like: readdirp (alwaysStat) warned and dropped such an entry; so does this.
      return false;
    }
    if (stats === undefined) return false; // gone since the readdir
    entry.stats = stats;
    return filter ? filter(entry) : true;
  };
}

/**
 * chokidar's watcher, walking with synchronous lstats (see above). chokidar is pinned exactly (`_readdirp` is its), and
 * readdirp too (package.json "overrides"): this relies on its dirent mode handing the same entry object to the filter
 * and to the stream, so the stats set here are the ones chokidar reads.
 */
export class LocalWalkWatcher extends FSWatcher {
  override _readdirp(root: string, opts?: Parameters<FSWatcher['_readdirp']>[1]): ReturnType<FSWatcher['_readdirp']> {
    const filters = opts as { fileFilter?: EntryFilter; directoryFilter?: EntryFilter } | undefined;
    return super._readdirp(root, {
      ...opts,
      alwaysStat: false,
      fileFilter: withSyncStats(filters?.fileFilter),
      directoryFilter: withSyncStats(filters?.directoryFilter),
    } as Parameters<FSWatcher['_readdirp']>[1]);
  }
}

/** chokidar's watch(), with the synchronous-lstat walk for local folders. */
export function watchLocal(root: string, options: ChokidarOptions): FSWatcher {
  const watcher = new LocalWalkWatcher(options);
  watcher.add(root);
  return watcher;
}
