import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashFile } from '../../../main/core/images/hash';
import { defaultInspector } from '../../../main/core/watch/inspector';
import type { FileInspector } from '../../../main/core/watch/ports';
import { FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Review of issue 34 item 5: the arm's scan took each file as the watcher's walk saw it, though on a large archive the
// scan reaches a file minutes later. In polling mode nothing else reports what changed in between (the recheck
// cycle is set far away here), so the scan itself must look. The scan runs one file at a time (hashConcurrency 1) and
// the inspector holds it at a chosen file while the test changes another.
let root: string;
let cleanups: Array<() => Promise<void>> = [];
beforeEach(async () => { root = await tempDir('br-scan-race-'); });
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => (open = r));
  let reached: () => void = () => undefined;
  const arrived = new Promise<void>((r) => (reached = r));
  return { open, opened, reached, arrived };
}

/** The real inspector, held once at `at` (in `step`) until the gate opens. */
function heldInspector(step: 'classify' | 'contentHash', at: string, g: ReturnType<typeof gate>): FileInspector {
  let held = false;
  const hold = async (path: string) => {
    if (held || !path.endsWith(at)) return;
    held = true;
    g.reached();
    await g.opened;
  };
  return {
    classify: async (path) => { if (step === 'classify') await hold(path); return defaultInspector.classify(path); },
    contentHash: async (path) => { if (step === 'contentHash') await hold(path); return defaultInspector.contentHash(path); },
  };
}

async function setUp(inspector: FileInspector) {
  const inbox = join(root, 'in');
  await mkdir(inbox, { recursive: true });
  await writeFile(join(inbox, 'a.jpg'), jpegBytes('first photo', 400));
  await writeFile(join(inbox, 'z.jpg'), jpegBytes('last photo, version 1', 400));
  await sleep(50);
  const h = harness({ inspector, hashConcurrency: 1, timings: { ...FAST.timings, existingRecheckMs: 600_000 } });
  cleanups.push(() => h.manager.close());
  const saving = h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), polling: true }));
  return { inbox, h, saving };
}

describe('the arm\'s scan of a polled folder, a file changed after the walk', () => {
  it('rewritten before the scan reaches it: the new content is submitted', async () => {
    const g = gate();
    const { inbox, h, saving } = await setUp(heldInspector('classify', 'a.jpg', g));
    await g.arrived;
    await writeFile(join(inbox, 'z.jpg'), jpegBytes('last photo, version 2 (longer)', 400));
    g.open();
    await saving;
    await waitFor(() => h.engine.submissions.flatMap((s) => s.paths).length === 2, 5_000, 'both photos submitted');
    const byPath = new Map(h.engine.submissions.flatMap((s) => s.paths.map((p, i) => [p, s.hashes[i]] as const)));
    expect(byPath.get(join(inbox, 'z.jpg'))).toBe(await hashFile(join(inbox, 'z.jpg')));
  });

  it('rewritten while it is hashed: looked at again, and submitted', async () => {
    const g = gate();
    const { inbox, h, saving } = await setUp(heldInspector('contentHash', 'z.jpg', g));
    await g.arrived;
    await writeFile(join(inbox, 'z.jpg'), jpegBytes('last photo, version 2 (longer)', 400));
    g.open();
    await saving;
    await waitFor(() => h.engine.submissions.flatMap((s) => s.paths).includes(join(inbox, 'z.jpg')), 5_000, 'z.jpg submitted');
    const hashes = h.engine.submissions.flatMap((s) => s.hashes);
    expect(hashes).toContain(await hashFile(join(inbox, 'z.jpg')));
  });

  it('replaced by a link to a file outside the folder: not followed', async () => {
    const secret = join(root, 'private.jpg');
    await writeFile(secret, jpegBytes('someone else\'s private photo', 400));
    const g = gate();
    const { inbox, h, saving } = await setUp(heldInspector('classify', 'a.jpg', g));
    await g.arrived;
    await rm(join(inbox, 'z.jpg'));
    await symlink(secret, join(inbox, 'z.jpg'));
    g.open();
    await saving;
    await waitFor(() => h.engine.submissions.length >= 1, 5_000, 'a.jpg submitted');
    await sleep(1_000);
    expect(h.engine.submissions.flatMap((s) => s.hashes)).not.toContain(await hashFile(secret));
    expect(h.engine.submissions.flatMap((s) => s.paths)).toEqual([join(inbox, 'a.jpg')]);
  });
});
