import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { openSettingsStore } from '../../../main/core/settings';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { within } from '../../helpers/until';
import { writePhotos } from '../engine/helpers';
import { useCoreTestBed } from './core-test-bed';

// A recursive hot folder of thousands of subfolders: chokidar walks it for seconds (≈ 0.2 ms a folder, longer on a
// busy machine), past createCore's 1 s answer, so the core is up while the folder is still 'scanning'. A shutdown
// then must not wait for a walk it has just closed (it waited for ever: chokidar's close() drops 'ready').

/** While `hold` is set, each watcher's 'ready' (its walk is over) waits here: a walk as slow as the test needs. */
const walks = vi.hoisted(() => ({ hold: false, held: [] as Array<() => void> }));
vi.mock('chokidar', async (importOriginal) => {
  const chokidar = await importOriginal<typeof import('chokidar')>();
  const holdReady = <W>(watcher: W): W => {
    const emitter = watcher as unknown as { emit(event: string, ...rest: unknown[]): boolean };
    const emit = emitter.emit.bind(emitter);
    emitter.emit = (event, ...rest) => {
      if (event !== 'ready' || !walks.hold) return emit(event, ...rest);
      walks.held.push(() => emit(event, ...rest));
      return true;
    };
    return watcher;
  };
  return {
    ...chokidar,
    watch: (...args: Parameters<typeof chokidar.watch>) => holdReady(chokidar.watch(...args)),
    // A local folder's watcher is chokidar's FSWatcher subclassed (main/core/watch/local-walk.ts), made with `new`.
    FSWatcher: class extends chokidar.FSWatcher {
      constructor(...args: ConstructorParameters<typeof chokidar.FSWatcher>) {
        super(...args);
        holdReady(this);
      }
    },
  };
});

const bed = useCoreTestBed('core-hot-walk');

describe('createCore with a recursive hot folder of 2,000 subfolders', () => {
  it('shuts down gracefully at once while chokidar still walks it, and sends none of its photos', async () => {
    const hot = join(bed.dir, 'hot');
    const stateDir = join(bed.dir, 'state');
    for (let i = 0; i < 2_000; i++) await mkdir(join(hot, `sub-${i}`), { recursive: true });
    await writePhotos(join(hot, 'sub-7'), 3);
    openSettingsStore({ stateDir }).update({
      hotFolders: [HotFolderConfigSchema.parse({
        id: 'hf', path: hot, recursive: true, workflowId: 'auto-enhance', outputFolder: join(bed.dir, 'out'), enabled: true,
      })],
    });
    const executes = bed.executes;
    const before = executes();
    walks.hold = true;
    try {
      const core = await createCore({
        host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` },
        stateDir, env: {}, secretStore: createInMemorySecretStore(), serviceUrl: bed.sandbox.url, apiKey: bed.sandbox.apiKey, startHotFolders: true,
      });
      expect(core.hotFolders?.get('hf').status.state).toBe('scanning');
      await expect(within(core.shutdown({ graceful: true }), 10_000)).resolves.toBe('done');
    } finally {
      walks.hold = false;
      for (const release of walks.held.splice(0)) release();
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing left running sends anything later either
    expect(executes()).toBe(before);
  });
});
