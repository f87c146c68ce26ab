import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Issue 30 item 4: in a shared hot folder, another user's symlink to the owner's private photo must not make
// Batchroom upload it — on the first scan or while armed. Real links, real chokidar.

let root: string;
let cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = await tempDir('br-links-');
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await chmod(join(root, 'private'), 0o700).catch(() => undefined);
  await removeDir(root);
});

const SETTLE_MS = Math.max(FAST.timings.stabilityThresholdMs * 3, FAST.timings.unprovenStableMs) + 300;

async function setUp() {
  const inbox = join(root, 'shared-in');
  const privateDir = join(root, 'private');
  await mkdir(inbox, { recursive: true });
  await mkdir(join(inbox, 'sub'));
  await mkdir(privateDir, { mode: 0o700 });
  const secret = join(privateDir, 'secret.jpg');
  await writeFile(secret, jpegBytes('the owner\'s private photo', 800), { mode: 0o600 });
  const inside = join(inbox, 'sub', 'own.jpg');
  await writeFile(inside, jpegBytes('a photo in the hot folder', 800));
  return { inbox, secret, inside };
}

async function arm(inbox: string) {
  const h = harness();
  cleanups.push(() => h.manager.close());
  const state = await h.manager.save(folderConfig({ path: inbox, outputFolder: join(root, 'out'), existingFiles: 'process', recursive: true }));
  expect(state.status.state).toBe('armed');
  return h;
}

describe('links in a hot folder', () => {
  it('first scan: a link to a file outside is not submitted, a link to a file inside is', async () => {
    const { inbox, secret, inside } = await setUp();
    await symlink(secret, join(inbox, 'holiday.jpg'));
    await symlink(inside, join(inbox, 'inside-link.jpg'));
    const h = await arm(inbox);
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    const submitted = h.engine.submittedPaths();
    expect(submitted).not.toContain(join(inbox, 'holiday.jpg'));
    // The photo inside is one photo (the link and its target hash alike): submitted once, by either name.
    expect(submitted.length).toBe(1);
    expect(h.activity.some((a) => a.path === join(inbox, 'holiday.jpg') && /outside the watched folder/.test(a.message))).toBe(true);
  });

  it('armed: a link to a file outside added later is not submitted; a real file added alongside is', async () => {
    const { inbox, secret } = await setUp();
    const h = await arm(inbox);
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'first scan');
    const before = h.engine.submittedPaths().length;
    await symlink(secret, join(inbox, 'sneaky.jpg'));
    await writeFile(join(inbox, 'fresh.jpg'), jpegBytes('a new photo', 800));
    await waitFor(() => h.engine.submittedPaths().includes(join(inbox, 'fresh.jpg')), 5_000, 'fresh.jpg');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).not.toContain(join(inbox, 'sneaky.jpg'));
    expect(h.engine.submittedPaths().length).toBe(before + 1);
  });
});
