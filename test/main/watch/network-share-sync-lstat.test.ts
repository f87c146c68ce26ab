import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Review (issue 34, cdb69e9): whether a folder's walk and resumed scan may block the event loop with lstatSync is
// decided by the user's `polling` box alone (default off, HotFolderEditor). A folder on an NFS/SMB mount that was
// added without ticking it — the product's own example of a hot folder is "a colleague on a network share" — now
// freezes the whole process (engine, downloads, IPC, the 5 s availability probe) for as long as the share stalls
// (an NFS hard mount: for ever). The filesystem the root lives on is known (statfs); a network one must keep the
// asynchronous stats whatever the box says.

const NFS_SUPER_MAGIC = 0x6969;
let syncLstats = 0;
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const netStatfs = { type: NFS_SUPER_MAGIC, bsize: 4096, blocks: 1, bfree: 1, bavail: 1, files: 1, ffree: 1 };
  return {
    ...actual,
    lstatSync: ((...args: Parameters<typeof actual.lstatSync>) => {
      syncLstats++;
      return actual.lstatSync(...args);
    }) as typeof actual.lstatSync,
    statfsSync: () => netStatfs,
    statfs: (_p: unknown, ...rest: unknown[]) => (rest.at(-1) as (e: null, s: typeof netStatfs) => void)(null, netStatfs),
    promises: { ...actual.promises, statfs: async () => netStatfs },
  };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, statfs: async () => ({ type: NFS_SUPER_MAGIC, bsize: 4096, blocks: 1, bfree: 1, bavail: 1, files: 1, ffree: 1 }) };
});

const { startFolderWatcher, DEFAULT_WATCH_TIMINGS } = await import('../../../main/core/watch/folder-watcher');
const { removeDir, tempDir } = await import('./fakes');

let root: string;
beforeEach(async () => {
  root = await tempDir('br-share-');
  syncLstats = 0;
});
afterEach(() => removeDir(root));

describe('a hot folder on a network filesystem, polling box left unticked', () => {
  it('is walked without synchronous lstats (a stalled share must not hold the process)', async () => {
    await mkdir(join(root, 'sub'));
    for (let i = 0; i < 5; i++) await writeFile(join(root, 'sub', `${i}.jpg`), 'x');
    const watcher = startFolderWatcher({
      root, recursive: true, polling: false, ignored: Object.assign(() => false, { excludedDirs: [] }), timings: DEFAULT_WATCH_TIMINGS,
      onFile: () => undefined, onError: () => undefined, onRootGone: () => undefined,
    });
    try {
      await watcher.ready;
      expect(syncLstats).toBe(0);
    } finally {
      await watcher.close();
    }
  });
});
