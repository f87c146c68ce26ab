import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultInspector, type FileInspector } from '../../../main/core/watch';
import { within } from '../../helpers/until';
import { createFakeEngine, createFakeLedger, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Closing hot folders comes right before the host stops the engine and closes the journal (quitting, or `ui`
// stopped while it starts): whatever a folder was doing must be over by then — a journal write after the journal
// closed crashes the process.

/** Called (if set) each time a folder starts its chokidar watcher, right as chokidar begins walking the folder. */
const walks = vi.hoisted(() => ({ onStart: null as (() => void) | null }));
vi.mock('chokidar', async (importOriginal) => {
  const chokidar = await importOriginal<typeof import('chokidar')>();
  return {
    ...chokidar,
    watch: (...args: Parameters<typeof chokidar.watch>) => {
      walks.onStart?.();
      return chokidar.watch(...args);
    },
    // A local folder's watcher is chokidar's FSWatcher subclassed (main/core/watch/local-walk.ts), started by add().
    FSWatcher: class extends chokidar.FSWatcher {
      override add(...args: Parameters<typeof chokidar.FSWatcher.prototype.add>) {
        walks.onStart?.();
        return super.add(...args);
      }
    },
  };
});

let root: string;
let inbox: string;

beforeEach(async () => {
  root = await tempDir();
  inbox = join(root, 'in');
  await mkdir(inbox);
  await writeFile(join(inbox, 'a.jpg'), jpegBytes('a'));
});

afterEach(async () => {
  walks.onStart = null;
  await removeDir(root);
});

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('closing hot folders', () => {
  it('waits for a batch on its way to the engine before it resolves', async () => {
    const held = gate();
    const order: string[] = [];
    const fake = createFakeEngine({ autoComplete: false });
    const engine = {
      ...fake,
      async submit(spec: Parameters<typeof fake.submit>[0]) {
        order.push('submit');
        await held.opened;
        const answer = await fake.submit(spec);
        order.push('submitted');
        return answer;
      },
    };
    const { manager } = harness({ engine, configs: [folderConfig({ path: inbox, outputFolder: join(root, 'out') })] });
    await manager.start();
    await waitFor(() => order.includes('submit'), 5_000, 'the batch on its way');
    const closed = manager.close().then(() => order.push('closed'));
    await sleep(100);
    held.open();
    await closed;
    expect(order).toEqual(['submit', 'submitted', 'closed']);
  });

  it('closes within a bound while createBatch never answers', async () => {
    let submits = 0;
    const fake = createFakeEngine({ autoComplete: false });
    const engine = { ...fake, submit: async () => { submits++; return new Promise<never>(() => undefined); } };
    const { manager } = harness({ engine, configs: [folderConfig({ path: inbox, outputFolder: join(root, 'out') })] });
    await manager.start();
    await waitFor(() => submits > 0, 5_000, 'batch on its way');
    // It waited for ever before: the flush inside createBatch (a stalled share, a hung service) never returned.
    await expect(within(manager.close(), 8_000)).resolves.toBe('done');
  }, 20_000);

  it('abandons a batch the engine takes only after the bound: nothing sent, and the next start sends the photo once', async () => {
    const held = gate();
    let waiting = false;
    const first = createFakeEngine({ autoComplete: false });
    const engine = {
      ...first,
      // Like the real engine: a caller that gave up (its signal aborted) gets nothing journalled, an AbortError.
      async submit(spec: Parameters<typeof first.submit>[0], options?: { signal?: AbortSignal }) {
        waiting = true;
        await held.opened;
        options?.signal?.throwIfAborted();
        return first.submit(spec);
      },
    };
    const ledger = createFakeLedger();
    const configs = [folderConfig({ path: inbox, outputFolder: join(root, 'out') })];
    const { manager } = harness({ engine, ledger, configs });
    await manager.start();
    await waitFor(() => waiting, 5_000, 'the batch on its way');
    await expect(within(manager.close(), 8_000)).resolves.toBe('done');
    held.open(); // the stalled createBatch answers after all, once the folder has stopped waiting
    await sleep(300);
    expect(first.submissions).toEqual([]);

    const again = harness({ ledger, configs });
    await again.manager.start();
    await waitFor(() => again.engine.submissions.length > 0, 5_000, 'the photo sent at the next start');
    await sleep(300); // longer than the batching window: a second submission would have gone by now
    expect(again.engine.submittedPaths()).toEqual([join(inbox, 'a.jpg')]);
    await again.manager.close();
  }, 20_000);

  it('arms nothing when it closes while it starts', async () => {
    const { manager, engine } = harness({ configs: [folderConfig({ path: inbox, outputFolder: join(root, 'out') })] });
    const starting = manager.start();
    await manager.close();
    await starting;
    await sleep(300);
    expect(manager.hasArmed()).toBe(false);
    expect(engine.submissions).toEqual([]);
  });

  it('sends nothing for a photo it was still reading when it closed', async () => {
    const held = gate();
    let hashing = false;
    const inspector: FileInspector = {
      ...defaultInspector,
      contentHash: async (path) => {
        hashing = true;
        await held.opened;
        return defaultInspector.contentHash(path);
      },
    };
    const { manager, engine } = harness({ inspector, configs: [folderConfig({ path: inbox, outputFolder: join(root, 'out') })] });
    void manager.start();
    await waitFor(() => hashing, 5_000, 'the photo being read');
    const closed = manager.close();
    await sleep(50);
    held.open();
    await closed;
    await sleep(300); // longer than the batching window: a queued photo would have gone by now
    expect(engine.submissions).toEqual([]);
  });

  describe('while chokidar still walks a recursive folder of 2,000 subfolders (seconds on a busy machine)', () => {
    /** A recursive folder with a photo at its top and 2,000 empty subfolders; `act` runs as its walk starts. */
    async function walkingFolder(act: (manager: ReturnType<typeof harness>['manager']) => Promise<void>, polling = false) {
      for (let i = 0; i < 2_000; i++) await mkdir(join(inbox, `sub-${i}`));
      const h = harness({ configs: [folderConfig({ path: inbox, outputFolder: join(root, 'out'), recursive: true, polling })] });
      let acted: Promise<void> | undefined;
      // A microtask: after the folder holds its new watcher, before chokidar has read a single folder.
      walks.onStart = () => queueMicrotask(() => (acted = act(h.manager)));
      void h.manager.start();
      await waitFor(() => acted !== undefined, 5_000, 'the walk to start');
      return { ...h, acted: acted! };
    }

    it.each([false, true])('closes at once, arms nothing and sends nothing (polling: %s)', async (polling) => {
      const { manager, engine, acted } = await walkingFolder((m) => m.close(), polling);
      // chokidar's close() drops its 'ready' listener: without the fix the arm waited for it, and close for the arm, for ever.
      await expect(within(acted, 10_000)).resolves.toBe('done');
      await sleep(300); // longer than the batching window: a queued photo would have gone by now
      expect(manager.hasArmed()).toBe(false);
      expect(engine.submissions).toEqual([]);
    });

    it('disarms, and the arm it cut short ends too', async () => {
      const { manager, acted } = await walkingFolder(async (m) => void (await m.disarm('f1')));
      await acted;
      await expect(within(manager.settled(), 10_000)).resolves.toBe('done');
      expect(manager.get('f1').status.state).toBe('disarmed');
      await expect(within(manager.close(), 10_000)).resolves.toBe('done');
    });
  });
});
