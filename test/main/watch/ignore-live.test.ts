import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// The live watcher (real chokidar, real files) passes over the same folders the scan never searches. Before the one
// ignore list, a photo dropped into __MACOSX/ or $RECYCLE.BIN/ of an armed folder was submitted (and paid for).

let root: string;
let cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = await tempDir('br-watch-ignore-');
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

/** Longer than write-finish + coalescing + hashing: anything that would be submitted has been by then. */
const SETTLE_MS = Math.max(FAST.timings.stabilityThresholdMs * 3, FAST.timings.unprovenStableMs) + 300;
const SYSTEM_FOLDERS = ['__MACOSX', '$RECYCLE.BIN', '$Recycle.Bin', 'System Volume Information'];

describe.each([{ polling: false }, { polling: true }])('an armed hot folder (polling: $polling)', ({ polling }) => {
  it('ignores photos dropped into system folders, at the top and deeper, and takes the photo beside them', async () => {
    const inbox = join(root, 'in');
    await mkdir(inbox, { recursive: true });
    const h = harness();
    cleanups.push(() => h.manager.close());
    const state = await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, polling }));
    expect(state.status.state).toBe('armed');

    const dropped: string[] = [];
    for (const [n, dir] of SYSTEM_FOLDERS.entries()) {
      for (const parent of [inbox, join(inbox, 'day1')]) {
        await mkdir(join(parent, dir), { recursive: true });
        const photo = join(parent, dir, `IMG_${n}.jpg`);
        await writeFile(photo, jpegBytes(`${photo} content`));
        dropped.push(photo);
      }
    }
    const control = join(inbox, 'day1', 'IMG_control.jpg');
    await writeFile(control, jpegBytes('control'));

    await waitFor(() => h.engine.submittedPaths().includes(control), 10_000, 'the photo beside the system folders');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([control]);
    const mentioned = h.activity.filter((a) => dropped.includes(a.path));
    expect(mentioned).toEqual([]);
    expect(dropped).toHaveLength(SYSTEM_FOLDERS.length * 2);
  });
});
