import type { Stats } from 'node:fs';
import { lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchLocal, withSyncStats } from '../../../main/core/watch/local-walk';
import { removeDir, tempDir, waitFor } from './fakes';

let root: string;

beforeEach(async () => {
  root = await tempDir('br-local-walk-');
});

afterEach(async () => {
  await removeDir(root);
});

describe('withSyncStats', () => {
  it("hands chokidar's filter the entry's own lstat (a link stays a link), and passes over an entry gone since the readdir", async () => {
    await writeFile(join(root, 'a.jpg'), 'abc');
    await symlink(join(root, 'a.jpg'), join(root, 'link.jpg'));
    const seen: Stats[] = [];
    const filter = withSyncStats((entry) => {
      seen.push(entry.stats!);
      return true;
    });
    expect(filter({ fullPath: join(root, 'a.jpg') })).toBe(true);
    expect(filter({ fullPath: join(root, 'link.jpg') })).toBe(true);
    expect(filter({ fullPath: join(root, 'gone.jpg') })).toBe(false);
    expect(seen.map((s) => [s.isFile(), s.isSymbolicLink(), s.size])).toEqual([[true, false, 3], [false, true, seen[1]!.size]]);
    expect(seen[0]!.ino).toBe((await lstat(join(root, 'a.jpg'))).ino);
  });
});

describe('watchLocal', () => {
  it("walks with every entry's stats given to `ignored`, watches folders, and reports what arrives after the walk", async () => {
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'old.jpg'), 'old');
    const asked = new Map<string, Stats | undefined>();
    const added: string[] = [];
    const watcher = watchLocal(root, {
      ignoreInitial: true, followSymlinks: false, ignorePermissionErrors: true,
      ignored: (path: string, stats?: Stats) => {
        if (stats) asked.set(path, stats);
        return false;
      },
    });
    try {
      watcher.on('add', (path) => added.push(path));
      await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      const old = asked.get(join(root, 'sub', 'old.jpg'));
      expect(old?.isFile()).toBe(true);
      expect(old?.size).toBe(3);
      expect(asked.get(join(root, 'sub'))?.isDirectory()).toBe(true);
      expect(added).toEqual([]);
      await writeFile(join(root, 'sub', 'new.jpg'), 'new');
      await waitFor(() => added.includes(join(root, 'sub', 'new.jpg')), 10_000, 'the new file');
      await rm(join(root, 'sub', 'new.jpg'));
    } finally {
      await watcher.close();
    }
  });
});
