import { appendFile, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeEngine, FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

let root: string;
let cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = await tempDir();
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

async function armed(extra: Parameters<typeof harness>[0] = {}, config: Partial<Parameters<typeof folderConfig>[0]> = {}) {
  const inbox = join(root, 'in');
  const out = join(root, 'out');
  await mkdir(inbox, { recursive: true });
  const h = harness(extra);
  cleanups.push(() => h.manager.close());
  const state = await h.manager.save(folderConfig({ path: inbox, outputFolder: out, ...config }));
  expect(state.status.state).toBe('armed');
  return { ...h, inbox, out };
}

/** Longer than write-finish + coalescing + hashing: anything that would be submitted has been by then. */
const SETTLE_MS = Math.max(FAST.timings.stabilityThresholdMs * 3, FAST.timings.unprovenStableMs) + 300;

describe('hot folder pick-up', () => {
  it('picks a file written in slow chunks once, after its last byte', async () => {
    const h = await armed();
    const path = join(h.inbox, 'slow.jpg');
    const full = jpegBytes('slow write', 4000);
    const chunks = 6;
    const size = Math.ceil(full.length / chunks);
    await writeFile(path, full.subarray(0, size));
    for (let i = 1; i < chunks; i++) {
      await sleep(FAST.timings.stabilityThresholdMs / 3);
      expect(h.engine.submissions).toHaveLength(0);
      await appendFile(path, full.subarray(i * size, (i + 1) * size));
    }
    const lastByteAt = Date.now();
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([path]);
    const submission = h.engine.submissions[0]!;
    expect(submission.at).toBeGreaterThanOrEqual(lastByteAt);
    const { hashFile } = await import('../../../main/core/images/hash');
    expect(submission.hashes[0]).toBe(await hashFile(path));
  });

  it('keeps a format it cannot prove complete waiting out the full window when the copy stalls briefly', async () => {
    const h = await armed();
    const path = join(h.inbox, 'stalled.webp');
    const full = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(3000, 7)]);
    await writeFile(path, full.subarray(0, 1000));
    // Longer than the watcher's stability threshold (it reports the file), shorter than the unproven window.
    await sleep(FAST.timings.stabilityThresholdMs + (FAST.timings.unprovenStableMs - FAST.timings.stabilityThresholdMs) / 2);
    await appendFile(path, full.subarray(1000));
    const lastByteAt = Date.now();
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([path]);
    expect(h.engine.submissions[0]!.at).toBeGreaterThanOrEqual(lastByteAt);
    const { hashFile } = await import('../../../main/core/images/hash');
    expect(h.engine.submissions[0]!.hashes[0]).toBe(await hashFile(path));
  });

  it('defers a JPEG whose copy stalled past the write-finish threshold until its end marker arrives', async () => {
    const h = await armed();
    const path = join(h.inbox, 'stalled.jpg');
    const full = jpegBytes('stalled copy', 2000);
    await writeFile(path, full.subarray(0, 1000));
    await sleep(FAST.timings.stabilityThresholdMs * 2 + 200);
    expect(h.engine.submissions).toHaveLength(0);
    await appendFile(path, full.subarray(1000));
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([path]);
  });

  it('submits each file of a burst exactly once', async () => {
    const h = await armed();
    const count = 300;
    await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(h.inbox, `burst-${i}.jpg`), jpegBytes(`burst ${i}`))));
    await waitFor(() => h.engine.submittedPaths().length >= count, 20_000, 'all burst files');
    await sleep(SETTLE_MS);
    const paths = h.engine.submittedPaths();
    expect(paths).toHaveLength(count);
    expect(new Set(paths).size).toBe(count);
    await waitFor(() => h.ledger.entries.size === count, 10_000, 'ledger');
    expect(h.manager.get('f1').status.processed).toBe(count);
  });

  it('submits identical copies dropped together only once', async () => {
    const h = await armed();
    await Promise.all(['a.jpg', 'b.jpg', 'c.jpg'].map((n) => writeFile(join(h.inbox, n), jpegBytes('same content'))));
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toHaveLength(1);
  });

  it('does not process a renamed or moved file with the same content again', async () => {
    const h = await armed({}, { recursive: true });
    const path = join(h.inbox, 'photo.jpg');
    await writeFile(path, jpegBytes('rename me'));
    await waitFor(() => h.ledger.entries.size === 1, 5_000, 'ledger entry');
    await rename(path, join(h.inbox, 'renamed.jpg'));
    await mkdir(join(h.inbox, 'sub'));
    await sleep(50);
    await rename(join(h.inbox, 'renamed.jpg'), join(h.inbox, 'sub', 'moved.jpg'));
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([path]);
    expect(h.activity.some((a) => a.kind === 'skipped' && a.message.includes('already processed'))).toBe(true);
  });

  it('processes a file again when its content changes', async () => {
    const h = await armed();
    const path = join(h.inbox, 'edit.jpg');
    await writeFile(path, jpegBytes('version 1'));
    await waitFor(() => h.ledger.entries.size === 1, 5_000, 'first result');
    await writeFile(path, jpegBytes('version 2 with more bytes'));
    await waitFor(() => h.engine.submissions.length === 2, 5_000, 'second submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([path, path]);
    expect(h.engine.submissions[0]!.hashes[0]).not.toBe(h.engine.submissions[1]!.hashes[0]);
  });

  it('keeps a rewritten file in place until its newest version is done, recording each version once', async () => {
    const engine = createFakeEngine({ autoComplete: false });
    const h = await armed({ engine }, { moveOriginals: true });
    const path = join(h.inbox, 'edited.jpg');
    await writeFile(path, jpegBytes('first version'));
    await waitFor(() => engine.submissions.length === 1, 5_000, 'first submission');
    await writeFile(path, jpegBytes('second version, longer'));
    await waitFor(() => engine.submissions.length === 2, 5_000, 'second submission');
    await engine.completeSubmission(0);
    await waitFor(() => h.ledger.entries.size === 1, 5_000, 'first recorded');
    await sleep(100);
    expect(await readdir(h.inbox)).toContain('edited.jpg');
    await engine.completeSubmission(1);
    await waitFor(async () => (await readdir(join(h.inbox, 'Done')).catch(() => [])).length === 1, 5_000, 'moved');
    expect(h.ledger.entries.size).toBe(2);
    expect(h.manager.get('f1').status).toMatchObject({ processed: 2, queued: 0 });
  });

  it('ignores junk, hidden, partial and temporary files, and reports unsupported ones', async () => {
    const h = await armed();
    const junk = ['.DS_Store', 'Thumbs.db', 'desktop.ini', '.hidden.jpg', 'download.jpg.part', 'photo.jpg.crdownload', 'x.tmp', '~$draft.jpg'];
    for (const name of junk) await writeFile(join(h.inbox, name), jpegBytes(name));
    await writeFile(join(h.inbox, 'notes.txt'), 'not a photo');
    await writeFile(join(h.inbox, 'real.jpg'), jpegBytes('real'));
    await waitFor(() => h.engine.submissions.length > 0, 5_000, 'submission');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([join(h.inbox, 'real.jpg')]);
    const skipped = h.activity.filter((a) => a.kind === 'skipped').map((a) => a.path);
    expect(skipped).toEqual([join(h.inbox, 'notes.txt')]);
  });

  it('never feeds results back in when the output folder is inside the watched folder', async () => {
    const inbox = join(root, 'in');
    await mkdir(inbox);
    const h = harness();
    cleanups.push(() => h.manager.close());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: join(inbox, 'results'), recursive: true }));
    for (let i = 0; i < 5; i++) await writeFile(join(inbox, `p${i}.jpg`), jpegBytes(`nested ${i}`));
    await waitFor(() => h.ledger.entries.size === 5, 10_000, 'five results');
    await sleep(SETTLE_MS * 2);
    expect(h.engine.submittedPaths()).toHaveLength(5);
    expect(await readdir(join(inbox, 'results'))).toHaveLength(5);
  });

  it('refuses an output folder that is the watched folder or contains it', async () => {
    const h = harness();
    cleanups.push(() => h.manager.close());
    await expect(h.manager.save(folderConfig({ path: join(root, 'a'), outputFolder: join(root, 'a') }))).rejects.toMatchObject({ code: 'validation' });
    await expect(h.manager.save(folderConfig({ path: join(root, 'a', 'in'), outputFolder: join(root, 'a') }))).rejects.toMatchObject({ code: 'validation' });
  });

  it('mirrors sub-folders of a recursive folder under the output folder', async () => {
    const h = await armed({}, { recursive: true });
    await mkdir(join(h.inbox, 'day1'));
    await writeFile(join(h.inbox, 'day1', 'a.jpg'), jpegBytes('day1 a'));
    await writeFile(join(h.inbox, 'top.jpg'), jpegBytes('top'));
    await waitFor(() => h.engine.submittedPaths().length === 2, 5_000, 'two submissions');
    const folders = Object.fromEntries(h.engine.submissions.flatMap((s) => s.paths.map((p) => [p, s.spec.output.outputFolder])));
    expect(folders[join(h.inbox, 'day1', 'a.jpg')]).toBe(join(h.out, 'day1'));
    expect(folders[join(h.inbox, 'top.jpg')]).toBe(h.out);
  });
});
