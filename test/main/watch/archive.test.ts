import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';
import { spyOnFsWatch } from './fs-watch-spy';

// Issue 34 item 5: a hot folder armed on an archive. The files already there are the scan's (here: the 'skip'
// policy, so they are never sent); the watcher must neither watch them one by one nor ever report them, and must
// still take every file that arrives afterwards exactly once.

let root: string;
let cleanups: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  root = await tempDir('br-archive-');
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

const SETTLE_MS = Math.max(FAST.timings.stabilityThresholdMs * 3, FAST.timings.unprovenStableMs) + 500;

async function archive(inbox: string, dirs: number, perDir: number): Promise<string[]> {
  const files: string[] = [];
  for (let d = 0; d < dirs; d++) {
    const dir = join(inbox, `shoot-${d}`);
    await mkdir(dir, { recursive: true });
    const names = Array.from({ length: perDir }, (_, i) => join(dir, `IMG_${i}.jpg`));
    await Promise.all(names.map((path, i) => writeFile(path, jpegBytes(`archive ${d} ${i}`))));
    files.push(...names);
  }
  return files;
}

describe.each([false, true])('a hot folder that already holds an archive (polling: %s)', (polling) => {
  it('watches no existing file, never sends one, and takes each new file exactly once', async () => {
    const inbox = join(root, 'in');
    const existing = await archive(inbox, 40, 60);
    const spy = spyOnFsWatch();
    cleanups.push(() => spy.restore());
    const h = harness();
    cleanups.push(() => h.manager.close());
    const state = await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, existingFiles: 'skip', polling }));
    expect(state.status.state).toBe('armed');
    const known = new Set(existing);
    expect([...spy.watched, ...spy.polled].filter((path) => known.has(path))).toEqual([]);
    // One watch per folder (40 subfolders and the folder itself), not one per file.
    expect(new Set(polling ? spy.polled : spy.watched).size).toBeLessThanOrEqual(41);

    const fresh = [join(inbox, 'shoot-0', 'new-a.jpg'), join(inbox, 'shoot-0', 'new-b.jpg'), join(inbox, 'shoot-17', 'new-c.jpg'), join(inbox, 'shoot-39', 'new-d.jpg')];
    await Promise.all(fresh.map((path) => writeFile(path, jpegBytes(`new ${path}`))));
    await mkdir(join(inbox, 'shoot-new'));
    const inNewFolder = join(inbox, 'shoot-new', 'new-e.jpg');
    await writeFile(inNewFolder, jpegBytes('new in a new folder'));
    const expected = [...fresh, inNewFolder];
    await waitFor(() => h.engine.submittedPaths().length >= expected.length, 15_000, 'the new files');
    await sleep(SETTLE_MS);
    expect([...h.engine.submittedPaths()].sort()).toEqual([...expected].sort());
  });
});

describe('a hot folder that already holds an archive, native events', () => {
  it('still takes an existing file rewritten in place (its folder watch reports it), once', async () => {
    const inbox = join(root, 'in');
    const existing = await archive(inbox, 5, 20);
    const h = harness();
    cleanups.push(() => h.manager.close());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, existingFiles: 'skip' }));
    const rewritten = existing[37]!;
    await writeFile(rewritten, jpegBytes('a new edit of an old photo'));
    await waitFor(() => h.engine.submittedPaths().length > 0, 10_000, 'the rewritten file');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([rewritten]);
  });

  it('falls back to polling, saying why, when the system watch limit runs out, and misses no new file', async () => {
    const inbox = join(root, 'in');
    const existing = await archive(inbox, 10, 5);
    // Room for 4 native watches: the walk runs out in the third subfolder (chokidar reports ENOSPC and goes on).
    const spy = spyOnFsWatch({ limit: 4 });
    cleanups.push(() => spy.restore());
    const h = harness();
    cleanups.push(() => h.manager.close());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, existingFiles: 'skip' }));
    await waitFor(() => {
      const status = h.manager.get('f1').status;
      return status.state === 'armed' && (status.reason ?? '').includes('polled instead');
    }, 20_000, 'the folder armed, polling');
    expect(h.manager.get('f1').status.reason).toMatch(/limit on watched folders was reached \(fs\.inotify\.max_user_watches( = \d+)?\)/);
    expect(spy.polled.length).toBeGreaterThan(0);

    // The last subfolder never got a native watch: a photo there is found by polling.
    const late = join(inbox, 'shoot-9', 'late.jpg');
    await writeFile(late, jpegBytes('arrived after the limit ran out'));
    await waitFor(() => h.engine.submittedPaths().length > 0, 10_000, 'the new file');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([late]);
    expect(h.engine.submittedPaths().filter((path) => existing.includes(path))).toEqual([]);
  });
});
