import { FSWatcher } from 'chokidar';
import { mkdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { folderConfig, harness, jpegBytes, removeDir, tempDir, waitFor } from './fakes';

// Review (issue 34): chokidar reads a folder and only then puts its watch on it (handler.js _handleDir: await
// _handleRead, then _watchWithNodeFs). A sub-folder created (or renamed into place) between the folder's readdir and
// that watch is neither walked nor watched; the arm's scan runs once and finds nothing in it yet; every photo that
// arrives in it afterwards is never reported (until something else changes in its parent, or the next start). The
// window is the read of the parent: seconds for a folder holding a large archive, on every arm and every start.

let root: string;
let restore: () => void = () => undefined;
beforeEach(async () => {
  root = await tempDir('br-walk-mkdir-');
});
afterEach(async () => {
  restore();
  await removeDir(root);
});

describe.each([false, true])('a sub-folder created while the arm walks its parent (polling: %s)', (polling) => {
  it('is watched: a photo that arrives in it after the arm is taken', async () => {
    const inbox = join(root, 'in');
    await mkdir(join(inbox, 'old'), { recursive: true });
    for (let i = 0; i < 50; i++) await writeFile(join(inbox, `IMG_${i}.jpg`), jpegBytes(`old ${i}`));
    const late = join(inbox, 'late');
    // The moment: while the inbox's listing is being read (its entries handed to chokidar's filter), before its watch.
    const original = FSWatcher.prototype._readdirp;
    let made = false;
    FSWatcher.prototype._readdirp = function (this: FSWatcher, dir: string, opts?: Parameters<FSWatcher['_readdirp']>[1]) {
      const o = (opts ?? {}) as { fileFilter?: (e: { fullPath: string }) => boolean };
      const fileFilter = o.fileFilter;
      const wrapped = {
        ...opts,
        fileFilter: (entry: { fullPath: string }) => {
          if (!made && entry.fullPath === join(inbox, 'IMG_10.jpg')) {
            made = true;
            mkdirSync(late);
          }
          return fileFilter ? fileFilter(entry) : true;
        },
      };
      return original.call(this, dir, wrapped as Parameters<FSWatcher['_readdirp']>[1]);
    } as FSWatcher['_readdirp'];
    restore = () => {
      FSWatcher.prototype._readdirp = original;
    };
    const h = harness();
    try {
      await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, existingFiles: 'skip', polling }));
      await waitFor(() => h.manager.list().every((f) => f.status.state === 'armed'), 30_000, 'armed');
      if (!made) throw new Error('the folder was not created during the walk');
      const photo = join(late, 'new.jpg');
      await writeFile(photo, jpegBytes('a photo in the new shoot folder'));
      await waitFor(() => h.engine.submittedPaths().includes(photo), 8_000, 'the photo in the folder created during the walk');
    } finally {
      await h.manager.close();
    }
  });
});
