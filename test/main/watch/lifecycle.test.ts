import { access, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileBaselineStore, createFileHashCache, createHotFolderHandlers, defaultInspector, type FileInspector } from '../../../main/core/watch';
import { createFakeEngine, createFakeLedger, FAST, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

let root: string;
let inbox: string;
let out: string;
let cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = await tempDir();
  inbox = join(root, 'in');
  out = join(root, 'out');
  await mkdir(inbox);
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await removeDir(root);
});

const SETTLE_MS = Math.max(FAST.timings.stabilityThresholdMs * 3, FAST.timings.unprovenStableMs) + 300;

function track<T extends { manager: { close(): Promise<void> } }>(h: T): T {
  cleanups.push(() => h.manager.close());
  return h;
}

async function drop(names: string[], dir = inbox): Promise<string[]> {
  const paths = names.map((n) => join(dir, n));
  for (const p of paths) await writeFile(p, jpegBytes(`content of ${p}`));
  return paths;
}

describe('restart', () => {
  it('picks up files added while closed exactly once, and nothing already done', async () => {
    const ledger = createFakeLedger();
    const baseline = createFileBaselineStore(join(root, 'state'));
    const first = track(harness({ ledger, baseline }));
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out }));
    const before = await drop(['a.jpg', 'b.jpg']);
    await waitFor(() => ledger.entries.size === 2, 5_000, 'first results');
    await first.manager.close();

    const added = await drop(['c.jpg', 'd.jpg']);
    const engine = createFakeEngine();
    const second = track(harness({ ledger, baseline, engine, configs: first.configStore.current }));
    await second.manager.start();
    await waitFor(() => engine.submittedPaths().length === 2, 5_000, 'files added while closed');
    await sleep(SETTLE_MS);
    expect(engine.submittedPaths().sort()).toEqual(added.sort());
    expect(engine.submittedPaths()).not.toContain(before[0]);
    expect(second.manager.get('f1').status.state).toBe('armed');
  });

  it('does not re-read files it already hashed when it scans again after a restart', async () => {
    const ledger = createFakeLedger();
    const hashCache = createFileHashCache(join(root, 'state'));
    const hashed: string[] = [];
    const inspector: FileInspector = { ...defaultInspector, contentHash: (p) => (hashed.push(p), defaultInspector.contentHash(p)) };
    const first = track(harness({ ledger, hashCache, inspector }));
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out }));
    await drop(['a.jpg', 'b.jpg']);
    await waitFor(() => ledger.entries.size === 2, 5_000, 'results');
    await first.manager.close();
    hashed.length = 0;
    const [added] = await drop(['c.jpg']);
    const second = track(harness({ ledger, hashCache, inspector, configs: first.configStore.current }));
    await second.manager.start();
    await waitFor(() => second.engine.submittedPaths().length === 1, 5_000, 'new file');
    expect(hashed).toEqual([added]);
  });

  it("keeps files skipped under the 'skip' policy skipped across restarts", async () => {
    const baseline = createFileBaselineStore(join(root, 'state'));
    const ledger = createFakeLedger();
    const existing = await drop(['old1.jpg', 'old2.jpg']);
    const first = track(harness({ ledger, baseline }));
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out, existingFiles: 'skip' }));
    const fresh = await drop(['new.jpg']);
    await waitFor(() => first.engine.submittedPaths().length === 1, 5_000, 'new file');
    expect(first.engine.submittedPaths()).toEqual(fresh);
    await waitFor(() => ledger.entries.size === 1, 5_000, 'result recorded');
    await first.manager.close();

    const whileClosed = await drop(['later.jpg']);
    const engine = createFakeEngine();
    const second = track(harness({ ledger, baseline, engine, configs: first.configStore.current }));
    await second.manager.start();
    await waitFor(() => engine.submittedPaths().length >= 1, 5_000, 'file added while closed');
    await sleep(SETTLE_MS);
    expect(engine.submittedPaths()).toEqual(whileClosed);
    expect(engine.submittedPaths()).not.toContain(existing[0]);
  });

  it("holds existing files for review under the 'dry-run' policy, then processes them when armed", async () => {
    const existing = await drop(['x.jpg', 'y.jpg']);
    const h = track(harness());
    const state = await h.manager.save(folderConfig({ path: inbox, outputFolder: out, existingFiles: 'dry-run' }));
    expect(state.status.state).toBe('awaiting-review');
    expect(state.status.awaitingReview).toBe(2);
    const report = await h.manager.dryRun('f1');
    expect(report.toProcess.map((f) => f.path).sort()).toEqual(existing.sort());
    expect(report.totalCredits).toBe(4);
    // New files are processed while the existing ones wait.
    const fresh = await drop(['z.jpg']);
    await waitFor(() => h.engine.submittedPaths().length === 1, 5_000, 'new file');
    expect(h.engine.submittedPaths()).toEqual(fresh);
    const approved = await h.manager.setArmed('f1', true);
    expect(approved.status.state).toBe('armed');
    await waitFor(() => h.engine.submittedPaths().length === 3, 5_000, 'approved files');
    expect(h.engine.submittedPaths().sort()).toEqual([...existing, ...fresh].sort());
  });
});

describe('RAW+JPEG pairs in a hot folder', () => {
  it('the dry run prices a pair once and names the half left out', async () => {
    const [jpeg, raw, lone] = [join(inbox, 'IMG_1.JPG'), join(inbox, 'IMG_1.CR3'), join(inbox, 'IMG_2.cr3')];
    await writeFile(jpeg, jpegBytes('jpeg 1'));
    await writeFile(raw, jpegBytes('raw 1'));
    await writeFile(lone, jpegBytes('raw 2'));
    const h = track(harness());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, existingFiles: 'dry-run' }));
    const report = await h.manager.dryRun('f1');
    expect(report.toProcess.map((f) => f.path).sort()).toEqual([jpeg, lone].sort());
    expect(report.totalCredits).toBe(4);
    expect(report.unsupported).toEqual([{ path: raw, reason: 'RAW+JPEG pair: edited once, from IMG_1.JPG', rawPair: true }]);
  });
});

describe('unavailable folders', () => {
  it('marks a vanished folder unavailable with a reason, keeps others running, and recovers by itself', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    const h = track(harness());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out }));
    await h.manager.save(folderConfig({ id: 'f2', path: other, outputFolder: join(root, 'out2') }));
    await rename(inbox, join(root, 'away'));
    await waitFor(() => h.manager.get('f1').status.state === 'unavailable', 5_000, 'unavailable');
    expect(h.manager.get('f1').status.reason).toMatch(/not found/);
    const otherFile = (await drop(['still-works.jpg'], other))[0]!;
    await waitFor(() => h.engine.submittedPaths().includes(otherFile), 5_000, 'other folder still processing');
    await writeFile(join(root, 'away', 'while-away.jpg'), jpegBytes('added while unavailable'));
    await rename(join(root, 'away'), inbox);
    await waitFor(() => h.manager.get('f1').status.state === 'armed', 5_000, 'recovered');
    await waitFor(() => h.engine.submittedPaths().includes(join(inbox, 'while-away.jpg')), 5_000, 'file added while away');
    const after = (await drop(['after.jpg']))[0]!;
    await waitFor(() => h.engine.submittedPaths().includes(after), 5_000, 'watching again');
    expect(h.activity.map((a) => a.kind)).toEqual(expect.arrayContaining(['unavailable', 'recovered']));
  });

  it("applies the existing-files policy when a folder armed while missing first appears", async () => {
    const late = join(root, 'late');
    const h = track(harness());
    const state = await h.manager.save(folderConfig({ path: late, outputFolder: out, existingFiles: 'skip' }));
    expect(state.status.state).toBe('unavailable');
    const staging = join(root, 'staging');
    await mkdir(staging);
    await writeFile(join(staging, 'was-there.jpg'), jpegBytes('was there'));
    await rename(staging, late);
    await waitFor(() => h.manager.get('f1').status.state === 'armed', 5_000, 'available');
    const [fresh] = await drop(['new.jpg'], late);
    await waitFor(() => h.engine.submittedPaths().length === 1, 5_000, 'new file');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([fresh]);
  });

  it('reports a path that is not a folder as unavailable', async () => {
    const notDir = join(root, 'file-not-folder');
    await writeFile(notDir, 'x');
    const h = track(harness());
    const state = await h.manager.save(folderConfig({ path: notDir, outputFolder: out }));
    expect(state.status).toMatchObject({ state: 'unavailable', reason: 'the path is not a folder' });
  });

  it('starts a folder that does not exist as unavailable without failing the manager', async () => {
    const h = track(harness({ configs: [folderConfig({ path: join(root, 'missing'), outputFolder: out })] }));
    await h.manager.start();
    expect(h.manager.get('f1').status.state).toBe('unavailable');
    await mkdir(join(root, 'missing'));
    await waitFor(() => h.manager.get('f1').status.state === 'armed', 5_000, 'recovered');
  });
});

describe('engine refusals, budget and polling', () => {
  it('retries files whose batch the engine refused, once it accepts again', async () => {
    let refuse: string | null = 'insufficient credits';
    const engine = createFakeEngine({ refuse: () => refuse });
    const h = track(harness({ engine }));
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out }));
    const [photo] = await drop(['waiting.jpg']);
    await waitFor(() => (h.manager.get('f1').status.reason ?? '').includes('insufficient credits'), 5_000, 'reason shown');
    expect(h.engine.submissions).toHaveLength(0);
    refuse = null;
    await waitFor(() => h.engine.submittedPaths().length === 1, 5_000, 'retried');
    expect(h.engine.submittedPaths()).toEqual([photo]);
    await waitFor(() => h.manager.get('f1').status.reason === null, 5_000, 'reason cleared');
  });

  it('stops submitting at the folder budget and says so', async () => {
    const h = track(harness());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, budget: 5 }));
    await drop(['1.jpg', '2.jpg', '3.jpg']);
    await waitFor(() => h.activity.some((a) => a.message.includes('budget')), 5_000, 'budget reached');
    await sleep(SETTLE_MS);
    // The fake workflow costs 2 credits: two fit in 5.
    expect(h.engine.submittedPaths()).toHaveLength(2);
    expect(h.manager.get('f1').status.reason).toMatch(/budget of 5 credits/);
  });

  it('picks up files in polling mode (network shares)', async () => {
    const h = track(harness());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, polling: true }));
    const [photo] = await drop(['polled.jpg']);
    await waitFor(() => h.engine.submittedPaths().length === 1, 10_000, 'polled pick-up');
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([photo]);
  });

  it('finds new files of a polling folder from its listing, not only from the slow per-file poll', async () => {
    // chokidar alone would not see the file within this test (its poll interval is a minute).
    const h = track(harness({ timings: { ...FAST.timings, pollingIntervalMs: 60_000 } }));
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, polling: true }));
    const [photo] = await drop(['listed.jpg']);
    await waitFor(() => h.engine.submittedPaths().length === 1, 10_000, 'pick-up from the listing');
    expect(h.engine.submittedPaths()).toEqual([photo]);
  });

  it('reports a polled file once when chokidar’s own poll finds it again later', async () => {
    const h = track(harness({ timings: { ...FAST.timings, pollingIntervalMs: 1_000 } }));
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, polling: true }));
    const [photo] = await drop(['twice.jpg']);
    await waitFor(() => h.engine.submittedPaths().length === 1, 10_000, 'pick-up');
    await sleep(1_000 * 2 + SETTLE_MS);
    expect(h.engine.submittedPaths()).toEqual([photo]);
    expect(h.activity.filter((a) => a.kind === 'skipped')).toEqual([]);
  });
});

describe('move originals', () => {
  // Generous waits: on a loaded 2-core CI machine the second pick-up took over 5 s (a wait, not a timing assertion).
  it('moves originals to Done/ and Failed/, suffixing names already taken in Done/', async () => {
    const engine = createFakeEngine({ fail: (p) => p.endsWith('bad.jpg') });
    const h = track(harness({ engine }));
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, moveOriginals: true }));
    await writeFile(join(inbox, 'IMG_0001.jpg'), jpegBytes('first card'));
    await waitFor(async () => (await readdir(join(inbox, 'Done')).catch(() => [])).length === 1, 15_000, 'first move');
    await writeFile(join(inbox, 'IMG_0001.jpg'), jpegBytes('second card, same name'));
    await writeFile(join(inbox, 'bad.jpg'), jpegBytes('broken'));
    await waitFor(async () => (await readdir(join(inbox, 'Done')).catch(() => [])).length === 2, 15_000, 'second move');
    await waitFor(async () => (await readdir(join(inbox, 'Failed')).catch(() => [])).length === 1, 15_000, 'failed move');
    expect((await readdir(join(inbox, 'Done'))).sort()).toEqual(['IMG_0001 (2).jpg', 'IMG_0001.jpg']);
    expect(await readdir(join(inbox, 'Failed'))).toEqual(['bad.jpg']);
    expect((await readdir(inbox)).sort()).toEqual(['Done', 'Failed']);
    await sleep(SETTLE_MS);
    expect(h.engine.submittedPaths()).toHaveLength(3);
  });
});

describe('a retried item (outcome outbox delivers each attempt)', () => {
  it('fail then retry-saved counts 1 processed 0 failed, releases the budget once, and moves the original once more to Done/', async () => {
    const engine = createFakeEngine({ autoComplete: false });
    const h = track(harness({ engine }));
    // 2 credits per photo, 4 for the folder: two photos in flight use the whole budget.
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, moveOriginals: true, budget: 4 }));
    await writeFile(join(inbox, 'bad.jpg'), jpegBytes('broken at first'));
    await writeFile(join(inbox, 'a.jpg'), jpegBytes('slow one'));
    await waitFor(() => engine.submittedPaths().length === 2, 5_000, 'two submitted');
    const sub = (name: string) => {
      const s = engine.submissions.find((x) => x.paths.some((p) => p.endsWith(name)))!;
      const i = s.paths.findIndex((p) => p.endsWith(name));
      return { batchId: s.batchId, path: s.paths[i]!, contentHash: s.hashes[i]!, itemId: `item-${name}` };
    };
    const bad = sub('bad.jpg');
    const base = { ...bad, outputs: [], executionId: 'e1', hotFolderId: 'f1', reason: null };
    await engine.emit({ ...base, sourcePath: bad.path, state: 'failed', reason: 'corrupt image', creditsCharged: 0, attempt: 1 });
    expect(await readdir(join(inbox, 'Failed'))).toEqual(['bad.jpg']);
    expect(engine.moved).toEqual([{ itemId: bad.itemId, from: bad.path, to: join(inbox, 'Failed', 'bad.jpg') }]);
    // "Retry failed": the engine reads the original where the folder moved it, and this time it is saved.
    await engine.emit({ ...base, sourcePath: join(inbox, 'Failed', 'bad.jpg'), state: 'saved', outputs: [join(out, 'bad_wf-color.jpg')], creditsCharged: 2, attempt: 2 });
    const status = h.manager.list().find((f) => f.config.id === 'f1')!.status;
    expect({ processed: status.processed, failed: status.failed, creditsSpent: status.creditsSpent }).toEqual({ processed: 1, failed: 0, creditsSpent: 2 });
    expect(await readdir(join(inbox, 'Done'))).toEqual(['bad.jpg']);
    expect(await readdir(join(inbox, 'Failed'))).toEqual([]);
    expect(h.activity.filter((a) => a.kind === 'failed' && /could not move|not found/.test(a.message))).toEqual([]);
    // a.jpg is still in flight (2 committed) and 2 are spent: a third photo must not be sent past the budget.
    await writeFile(join(inbox, 'c.jpg'), jpegBytes('one too many'));
    await waitFor(() => h.activity.some((a) => a.kind === 'skipped' && a.path.endsWith('c.jpg')), 5_000, 'budget refusal');
    expect(engine.submittedPaths()).toHaveLength(2);
  });
});

describe('dry run and reprocess', () => {
  it('reports what would be processed, what is done, what collides and what is unsupported', async () => {
    const ledger = createFakeLedger();
    const first = track(harness({ ledger }));
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out }));
    const [done] = await drop(['done.jpg']);
    await waitFor(() => ledger.entries.size === 1, 5_000, 'done');
    await first.manager.disarm('f1');
    const [todo, clash] = await drop(['todo.jpg', 'clash.jpg']);
    await writeFile(join(inbox, 'readme.txt'), 'text');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'clash_wf-color.jpg'), 'already there');
    const report = await first.manager.dryRun('f1');
    expect(report.toProcess).toEqual([{ path: todo, output: join(out, 'todo_wf-color.jpg') }]);
    // The name the run will really write: the existing file is kept and the result takes the next suffix.
    expect(report.colliding).toEqual([{ path: clash, output: join(out, 'clash_wf-color (2).jpg') }]);
    expect(report.alreadyDone).toEqual([{ path: done }]);
    expect(report.unsupported).toEqual([{ path: join(inbox, 'readme.txt'), reason: expect.any(String) }]);
    expect(report.totalCredits).toBe(4);
    expect(first.engine.submittedPaths()).toEqual([done]);
  });

  it('does not make processed files eligible when the workflow changes, only on reprocess', async () => {
    const h = track(harness());
    const config = folderConfig({ path: inbox, outputFolder: out });
    await h.manager.save(config);
    const [photo] = await drop(['p.jpg']);
    await waitFor(() => h.ledger.entries.size === 1, 5_000, 'first result');
    const edited = await h.manager.save({ ...config, workflowId: 'wf-other', parameters: { texts: { style: 'warm' } } });
    expect(edited.config.previousSettings).toHaveLength(1);
    expect((await h.manager.dryRun('f1')).alreadyDone).toEqual([{ path: photo }]);
    await writeFile(join(inbox, 'renamed-copy.jpg'), jpegBytes(`content of ${photo}`));
    await sleep(SETTLE_MS);
    expect(h.engine.submissions).toHaveLength(1);
    const state = await h.manager.reprocess('f1');
    expect(state.config.previousSettings).toEqual([]);
    await waitFor(() => h.engine.submittedPaths().length === 2, 5_000, 'reprocessed');
    expect(h.engine.submissions[1]!.spec.workflowId).toBe('wf-other');
  });
});

describe('handlers', () => {
  it('serves the hotFolders channels', async () => {
    const h = track(harness());
    const handlers = createHotFolderHandlers(h.manager);
    const saved = await handlers['hotFolders:save'](folderConfig({ path: inbox, outputFolder: out, enabled: false }));
    expect(saved.status.state).toBe('disarmed');
    expect((await handlers['hotFolders:setArmed']({ id: 'f1', armed: true })).status.state).toBe('armed');
    expect(h.manager.hasArmed()).toBe(true);
    expect(await handlers['hotFolders:list']({})).toHaveLength(1);
    expect(h.configStore.current[0]!.enabled).toBe(true);
    expect((await handlers['hotFolders:setArmed']({ id: 'f1', armed: false })).status.state).toBe('disarmed');
    expect(await handlers['hotFolders:remove']({ id: 'f1' })).toEqual({ removed: true });
    expect(h.configStore.current).toEqual([]);
    await expect(handlers['hotFolders:dryRun']({ id: 'f1' })).rejects.toMatchObject({ code: 'not_found' });
    await sleep(50);
    expect(h.changed.length).toBeGreaterThan(0);
  });

  it('does nothing with files while disarmed', async () => {
    const h = track(harness());
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, enabled: false }));
    await drop(['ignored.jpg']);
    await sleep(SETTLE_MS);
    expect(h.engine.submissions).toHaveLength(0);
    await expect(access(join(inbox, 'ignored.jpg'))).resolves.toBeUndefined();
  });
});
