import { rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFolderWatcher, type FolderWatcher } from '../../../main/core/watch/folder-watcher';
import { ignoreRulesFor } from '../../../main/core/watch/ignore';
import { FAST, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Polling mode (network shares): a photo that arrived after the arm was polled on its own, a stat every
// pollingIntervalMs (2 s), for as long as the folder stayed armed — a studio's 10,000 photos a day were 5,000 stats a
// second by the evening. Once no poll has seen it change for quietFileMs it now leaves its own poll for the walk
// snapshot's slices (snapshot-poller.ts handQuietFilesOver), as if the walk had found it. What the tests hold: it is
// let go (chokidar no longer lists it), and a rewrite, or another photo under its name, is still reported.

let root: string;
let watcher: FolderWatcher | null = null;
beforeEach(async () => {
  root = await tempDir('br-quiet-');
});
afterEach(async () => {
  await watcher?.close();
  watcher = null;
  await removeDir(root);
});

describe('a new photo in a polled folder, once it has stayed unchanged', () => {
  it('leaves its own poll, and a rewrite or a new photo under its name is still reported', async () => {
    const inbox = join(root, 'in');
    await mkdir(inbox, { recursive: true });
    const events: Array<[string, string]> = [];
    watcher = startFolderWatcher({
      root: inbox, recursive: true, polling: true, ignored: ignoreRulesFor(inbox, join(root, 'out')),
      timings: { ...FAST.timings, quietFileMs: 600, existingRecheckMs: 500 },
      onFile: (path, kind) => events.push([path, kind]), onError: (error) => { throw error; }, onRootGone: () => undefined,
    });
    await watcher.ready;
    const photos = ['a.jpg', 'b.jpg', 'c.jpg'].map((name) => join(inbox, name));
    for (const [i, path] of photos.entries()) await writeFile(path, jpegBytes(`new photo ${i}`));
    await waitFor(() => photos.every((p) => events.some(([path]) => path === p)), 8_000, 'the three new photos reported');
    const listed = () => watcher!.watched()[inbox] ?? [];
    expect(listed()).toEqual(expect.arrayContaining(['a.jpg', 'b.jpg', 'c.jpg']));
    // Quiet for 600 ms: let go by the poll (before, listed — and polled every pollingIntervalMs — until a re-arm).
    await waitFor(() => !listed().some((name) => name.endsWith('.jpg')), 5_000, 'the quiet photos to leave their own poll');
    const reported = events.length;

    // a.jpg rewritten in place: found by the snapshot's re-check, as an old photo's rewrite is.
    await writeFile(photos[0]!, jpegBytes('new photo 0, edited and saved again', 200));
    await waitFor(() => events.slice(reported).some(([path]) => path === photos[0]), 8_000, 'the rewrite of a.jpg');
    // b.jpg removed and another photo written under its name (a new inode, other bytes).
    await rm(photos[1]!);
    await sleep(100);
    await writeFile(photos[1]!, jpegBytes('another photo that took the same name', 300));
    await waitFor(() => events.slice(reported).some(([path]) => path === photos[1]), 8_000, 'the new b.jpg');
    // c.jpg untouched: never reported again, through any of the folder reads the two changes above caused.
    await sleep(1_500);
    expect(events.filter(([path]) => path === photos[2]).length).toBe(1);
    expect(events.filter(([path]) => path === photos[0]).length).toBe(2);
  });
});
