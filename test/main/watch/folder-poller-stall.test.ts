import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// A share that stalls: a stat that never returns. Simulated by a blocking open(2) of a FIFO with no writer, done in
// the poll thread's stat for a path named STALL (a real blocking syscall, as a hung hard-mounted NFS/SMB stat is;
// V8's TerminateExecution cannot interrupt it). Everything else is the real poll thread. One stalled folder holds
// its hot folder's poll round (one thread per hot folder, by design: docs/hot-folders.md); the others are not held.
const dir = mkdtempSync(join(tmpdir(), 'br-poll-stall-'));
const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);
process.env.BR_TEST_STALL_FIFO = fifo;

vi.mock('../../../main/core/watch/poll-worker-source', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../main/core/watch/poll-worker-source')>();
  const stall = `if (path.includes('STALL')) require('node:fs').closeSync(require('node:fs').openSync(${JSON.stringify(process.env.BR_TEST_STALL_FIFO)}, 'r'));\n` +
    // BOOM: the thread fails (what an out-of-memory or any unguarded throw does); the watcher hears it as an error.
    `    if (path.includes('BOOM')) setImmediate(() => { throw new Error('poll thread failed'); });\n    return statSync(path, QUIET);`;
  const source = real.POLL_WORKER_SOURCE.replace('return statSync(path, QUIET);', stall);
  if (source === real.POLL_WORKER_SOURCE) throw new Error('poll-worker-source changed: the stall cannot be injected');
  return { POLL_WORKER_SOURCE: source };
});

const { FolderPoller } = await import('../../../main/core/watch/folder-poller');
const { startFolderWatcher } = await import('../../../main/core/watch/folder-watcher');
const { ignoreRulesFor } = await import('../../../main/core/watch/ignore');
const { FAST, folderConfig, harness, jpegBytes, waitFor } = await import('./fakes');

/** Lets the blocked open(2) return (a writer appears), so the stuck thread can end and the test process exit. */
function unstall(): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // no reader waiting
  }
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

afterEach(() => {
  for (let i = 0; i < 5; i++) unstall();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FolderPoller with a stat that never returns', () => {
  it('close() still ends (a disarm, a quit must not wait for the share)', async () => {
    const poller = new FolderPoller({ folderMs: 50, fileMs: 50, maxFolderStatsPerSecond: 4_000 });
    await poller.settled(); // the thread is up
    poller.watch(join(dir, 'share', 'STALL'), () => undefined);
    await new Promise((r) => setTimeout(r, 300)); // the thread is now inside the stalled stat
    const closing = poller.close();
    const closed = await within(closing, 3_000);
    unstall();
    await closing;
    expect(closed).toBe(true);
  }, 10_000);

  it('a polled hot folder whose new sub-folder stalls still closes (disarm, re-arm, quit await this close)', async () => {
    const inbox = join(dir, 'inbox');
    execFileSync('mkdir', ['-p', join(inbox, 'shoot-1')]);
    const watcher = startFolderWatcher({
      root: inbox, recursive: true, polling: true, ignored: ignoreRulesFor(inbox, join(dir, 'out')), timings: FAST.timings,
      onFile: () => undefined, onError: () => undefined, onRootGone: () => undefined,
    });
    await watcher.ready;
    execFileSync('mkdir', [join(inbox, 'STALL-shoot')]); // its poll's first stat never returns
    await new Promise((r) => setTimeout(r, 1_500));
    const closing = watcher.close();
    const closed = await within(closing, 3_000);
    unstall();
    await closing;
    expect(closed).toBe(true);
  }, 15_000);

  it('disarming a polled hot folder one of whose sub-folders stalls completes (the switch answers, the folder is disarmed)', async () => {
    const inbox = join(dir, 'armed-inbox');
    execFileSync('mkdir', ['-p', join(inbox, 'shoot-1')]);
    const h = harness();
    try {
      await h.manager.save(folderConfig({ path: inbox, outputFolder: join(dir, 'armed-out'), polling: true, recursive: true }));
      await waitFor(() => h.manager.get('f1').status.state === 'armed', 15_000, 'armed');
      execFileSync('mkdir', [join(inbox, 'STALL-card')]); // the poll's first stat of it never returns
      await new Promise((r) => setTimeout(r, 1_500));
      const answered = await within(h.manager.disarm('f1'), 3_000);
      const state = h.manager.get('f1').status.state;
      expect({ answered, state }).toEqual({ answered: true, state: 'disarmed' });
    } finally {
      unstall();
      await h.manager.close();
    }
  }, 20_000);

  it('a polled hot folder whose poll thread failed still finds new photos (or says it cannot)', async () => {
    const inbox = join(dir, 'boom-inbox');
    execFileSync('mkdir', ['-p', join(inbox, 'shoot-1')]);
    const h = harness();
    try {
      await h.manager.save(folderConfig({ path: inbox, outputFolder: join(dir, 'boom-out'), polling: true, recursive: true }));
      await waitFor(() => h.manager.get('f1').status.state === 'armed', 15_000, 'armed');
      execFileSync('mkdir', [join(inbox, 'BOOM-card')]); // the poll thread dies on it
      await new Promise((r) => setTimeout(r, 1_500));
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(inbox, 'shoot-1', 'new.jpg'), jpegBytes('arrived after the thread failed'));
      const deadline = Date.now() + 8_000;
      while (h.engine.submittedPaths().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const state = h.manager.get('f1').status.state;
      // Either the photo is found (the poll restarted), or the folder does not claim to be armed and watching.
      expect(h.engine.submittedPaths().length > 0 || state !== 'armed').toBe(true);
    } finally {
      await h.manager.close();
    }
  }, 30_000);
});
