import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Review of issue 34 item 5 (walk-snapshot.ts): the watcher no longer watches the files already in the folder when it
// is armed. "processes a file again when its content changes" (pickup.test.ts) holds for a file that arrived after
// the arm; these ask the same of a file that was there before it, rewritten in place (same name, same folder).
// Polling mode finds it by re-stat'ing the walk's files once per existingRecheckMs (snapshot-poller.ts): 1 s here.
let root: string;
let cleanups: Array<() => Promise<void>> = [];
beforeEach(async () => { root = await tempDir(); });
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

for (const polling of [false, true]) {
  describe(`a file that was in the folder before it was armed (${polling ? 'polling' : 'native'})`, () => {
    it('is processed again when its content is rewritten in place', async () => {
      const inbox = join(root, 'in');
      await mkdir(inbox, { recursive: true });
      const path = join(inbox, 'edit.jpg');
      await writeFile(path, jpegBytes('version 1'));
      await sleep(50);
      const h = harness({ timings: { ...FAST.timings, existingRecheckMs: 1_000 } });
      cleanups.push(() => h.manager.close());
      await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), polling }));
      await waitFor(() => h.ledger.entries.size === 1, 5_000, 'first result (the scan, existingFiles: process)');
      await sleep(300);
      await writeFile(path, jpegBytes('version 2 with more bytes'));
      await waitFor(() => h.engine.submissions.length === 2, 5_000, 'second submission');
      expect(h.engine.submissions[0]!.hashes[0]).not.toBe(h.engine.submissions[1]!.hashes[0]);
    });
  });
}
