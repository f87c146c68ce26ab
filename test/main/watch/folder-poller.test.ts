import { writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFolderWatcher, type FolderWatcher } from '../../../main/core/watch/folder-watcher';
import { FolderPoller } from '../../../main/core/watch/folder-poller';
import { ignoreRulesFor } from '../../../main/core/watch/ignore';
import { FAST, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';
import { spyOnFsWatch } from './fs-watch-spy';

// Issue 34 item 5 (polling): a polled folder's folders and new photos are stat'ed by one FolderPoller thread in
// bursts, with the folder stats a second capped, instead of one fs.watchFile per path. Real files, real threads:
// what arrives anywhere in a 1,000-folder tree is found once, and nothing that goes away breaks the poll.

let root = '';
let watcher: FolderWatcher | null = null;
let poller: FolderPoller | null = null;
afterEach(async () => {
  await watcher?.close();
  await poller?.close();
  watcher = null;
  poller = null;
  if (root) await removeDir(root);
  root = '';
});

const shoot = (inbox: string, d: number) => join(inbox, `shoot-${String(d).padStart(4, '0')}`);

async function tree(dirs: number): Promise<string> {
  root = await tempDir('br-folder-poller-');
  const inbox = join(root, 'in');
  for (let d = 0; d < dirs; d++) {
    await mkdir(shoot(inbox, d), { recursive: true });
    await writeFile(join(shoot(inbox, d), 'IMG_0.jpg'), jpegBytes(`old ${d}`));
  }
  return inbox;
}

function watch(inbox: string) {
  const events: string[] = [];
  const errors: string[] = [];
  watcher = startFolderWatcher({
    root: inbox, recursive: true, polling: true, ignored: ignoreRulesFor(inbox, join(root, 'out')), timings: FAST.timings,
    onFile: (path, kind) => events.push(`${kind} ${path}`),
    onError: (error) => errors.push(error.message),
    onRootGone: () => errors.push('root gone'),
  });
  return { events, errors };
}

/** Waits until `path` was reported, then a little longer: it must have been reported exactly once. */
async function reportedOnce(events: string[], path: string, what: string): Promise<void> {
  await waitFor(() => events.some((e) => e.endsWith(` ${path}`)), 20_000, what);
  await sleep(600);
  expect(events.filter((e) => e.endsWith(` ${path}`))).toEqual([`add ${path}`]);
}

describe('a polled tree of 1,000 folders', () => {
  it('uses no fs.watchFile, and finds a new file in folder 700, a new sub-folder\'s file and a renamed file once each, past a removed folder', async () => {
    const inbox = await tree(1_000);
    const spy = spyOnFsWatch();
    let seen: ReturnType<typeof watch>;
    try {
      seen = watch(inbox);
      await watcher!.ready;
      // Every folder polled (the old code did it too, by fs.watchFile), none by a libuv timer of its own.
      expect(new Set(spy.polled).size).toBeGreaterThanOrEqual(1_001);
      expect(spy.watchFiles).toEqual([]);
    } finally {
      spy.restore();
    }
    const { events, errors } = seen;

    // A folder removed: its poll reads zeros, chokidar lets it go; nothing breaks and nothing is reported.
    await rm(shoot(inbox, 300), { recursive: true });
    await sleep(800);

    const in700 = join(shoot(inbox, 700), 'new.jpg');
    await writeFile(in700, jpegBytes('new in folder 700'));
    await reportedOnce(events, in700, 'the new file in folder 700');

    const made = join(inbox, 'shoot-new');
    await mkdir(made);
    const inMade = join(made, 'first.jpg');
    await writeFile(inMade, jpegBytes('new in a new folder'));
    await reportedOnce(events, inMade, 'the file in the new sub-folder');

    // A rename inside a polled folder: the new name is a new file; the old photo under its old name was never reported.
    const renamed = join(shoot(inbox, 999), 'IMG_0-renamed.jpg');
    await rename(join(shoot(inbox, 999), 'IMG_0.jpg'), renamed);
    await reportedOnce(events, renamed, 'the renamed file');

    expect(events.sort()).toEqual([`add ${in700}`, `add ${inMade}`, `add ${renamed}`].sort());
    expect(errors).toEqual([]);
  }, 180_000);
});

describe('a sub-folder made after the arm, in a polled tree', () => {
  it('reports a file written between chokidar\'s read of the new folder and the start of its poll', async () => {
    const inbox = await tree(3);
    const { events, errors } = watch(inbox);
    await watcher!.ready;
    const made = join(inbox, 'shoot-late');
    const between = join(made, 'between.jpg');
    // The moment: chokidar has read the new folder (empty) and now starts its poll, whose first stat is the baseline.
    const original = FolderPoller.prototype.watch;
    FolderPoller.prototype.watch = function watchLate(this: FolderPoller, path, listener, recheck) {
      if (path === made) writeFileSync(between, jpegBytes('written before the poll began'));
      return original.call(this, path, listener, recheck);
    };
    try {
      await mkdir(made);
      await reportedOnce(events, between, 'the file written before the new folder\'s poll began');
    } finally {
      FolderPoller.prototype.watch = original;
    }
    expect(errors).toEqual([]);
  }, 60_000);
});

describe('FolderPoller', () => {
  it('stretches the round so a large tree stays under its folder stats a second, and keeps small ones at the folder interval', async () => {
    const inbox = await tree(40);
    poller = new FolderPoller({ folderMs: 50, fileMs: 100, maxFolderStatsPerSecond: 200 });
    for (let d = 0; d < 40; d++) poller.watch(shoot(inbox, d), () => undefined);
    // 40 folders at 200 a second: a round every 200 ms, not every 50 ms.
    expect(await poller.settled()).toEqual({ paths: 40, folders: 40, intervalMs: 200 });
    const few = new FolderPoller({ folderMs: 50, fileMs: 100, maxFolderStatsPerSecond: 200 });
    try {
      few.watch(shoot(inbox, 0), () => undefined);
      few.watch(join(shoot(inbox, 0), 'IMG_0.jpg'), () => undefined);
      expect(await few.settled()).toEqual({ paths: 2, folders: 1, intervalMs: 50 });
    } finally {
      await few.close();
    }
  });

  it('reports a folder\'s change with the previous stats, a path gone as zeros once, and nothing after its stop', async () => {
    const inbox = await tree(2);
    poller = new FolderPoller({ folderMs: 20, fileMs: 20, maxFolderStatsPerSecond: 1_000 });
    const a: Array<[number, number]> = [];
    const b: number[] = [];
    poller.watch(shoot(inbox, 0), (curr, prev) => a.push([curr.mtimeMs, prev.mtimeMs]));
    const stop = poller.watch(shoot(inbox, 1), (curr) => b.push(curr.mtimeMs));
    await poller.settled();
    await sleep(30);
    await writeFile(join(shoot(inbox, 0), 'x.jpg'), jpegBytes('x'));
    await waitFor(() => a.length > 0, 10_000, 'the change');
    expect(a[0]![0]).toBeGreaterThan(a[0]![1]);
    await rm(shoot(inbox, 0), { recursive: true });
    await waitFor(() => a.some(([curr]) => curr === 0), 10_000, 'the folder gone');
    await sleep(200);
    expect(a.filter(([curr]) => curr === 0)).toHaveLength(1);
    stop();
    await writeFile(join(shoot(inbox, 1), 'y.jpg'), jpegBytes('y'));
    await sleep(300);
    expect(b).toEqual([]);
  });
});
