import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HotFolderState } from '../../../shared/hotfolders/model';
import type { EventChannelName } from '../../../shared/ipc/contract';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings/schema';
import type { UpdateStatus } from '../../../shared/update/model';
import { silentLogger } from '../../../main/core/log';
import { createUpdateHandlers, createUpdateSlot } from '../../../main/core/update/handlers';
import { NodeFeedUpdater } from '../../../main/core/update/node-updater';
import { workInFlight } from '../../../main/core/update/work';
import { startAppUpdates } from '../../../main/electron/updater';
import { recordingInstaller, startFeed, type Feed } from './feed';

// The Electron glue with electron-updater's autoUpdater swapped for the Node feed updater (the same AppUpdater code):
// the core's events drive it, the renderer hears `update:changed`, the IPC handlers answer from the controller.

let feed: Feed;
let dir: string;

beforeEach(async () => {
  feed = await startFeed();
  dir = mkdtempSync(join(tmpdir(), 'batchroom-app-updates-'));
});
afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

function fakeCore(settings: Settings) {
  const listeners = new Set<(channel: EventChannelName, payload: unknown) => void>();
  const emitted: UpdateStatus[] = [];
  const core = {
    busy: 0,
    folders: [] as HotFolderState[],
    busyCount: () => core.busy,
    hotFolders: { list: () => core.folders },
    onEvent: (listener: (channel: EventChannelName, payload: unknown) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fire: (channel: EventChannelName, payload: unknown) => { for (const l of listeners) l(channel, payload); },
    emit: ((channel: string, payload: unknown) => { if (channel === 'update:changed') emitted.push(payload as UpdateStatus); }) as never,
    handlers: { 'settings:get': () => ({ settings }) },
    emitted,
  };
  return core;
}

function folder(enabled: boolean, state: HotFolderState['status']['state'], queued: number): HotFolderState {
  return {
    config: { id: 'f1', path: '/photos/Incoming', enabled } as HotFolderState['config'],
    status: { id: 'f1', state, reason: null, processed: 0, queued, failed: 0, lastActivityAt: null, awaitingReview: 0, creditsSpent: 0, studio: 'off' },
  };
}

describe('work in flight', () => {
  it('holds an update back for a batch or an armed folder with photos in flight, not for an idle armed folder', () => {
    const core = fakeCore(DEFAULT_SETTINGS);
    expect(workInFlight(core)).toBeNull();
    core.folders = [folder(true, 'armed', 0)];
    expect(workInFlight(core)).toBeNull();
    core.folders = [folder(true, 'armed', 3)];
    expect(workInFlight(core)).toBe('the hot folder Incoming has photos in flight');
    core.folders = [folder(true, 'scanning', 0)];
    expect(workInFlight(core)).toBe('the hot folder Incoming has photos in flight');
    core.folders = [folder(false, 'disarmed', 3)];
    expect(workInFlight(core)).toBeNull();
    core.busy = 1;
    expect(workInFlight(core)).toBe('a batch is running');
  });
});

describe('the app\'s updates', () => {
  it('answers unavailable where no controller runs (CLI, browser host, development build)', async () => {
    const slot = createUpdateSlot();
    const settings = { ...DEFAULT_SETTINGS, updateChannel: 'beta' as const };
    const core = fakeCore(settings);
    const controller = await startAppUpdates({
      core, slot, isPackaged: false, loadUpdater: () => Promise.reject(new Error('never loaded')),
      execPath: join(dir, 'Batchroom'), platform: 'linux', env: {}, logger: silentLogger,
    });
    expect(controller).toBeNull();
    const handlers = createUpdateHandlers({ slot, settings: () => settings, currentVersion: '1.0.0' });
    expect(await handlers['update:check']({})).toMatchObject({ state: 'unavailable', channel: 'beta', currentVersion: '1.0.0' });
    expect(await handlers['update:install']({})).toMatchObject({ state: 'unavailable' });
  });

  it('waits for a batch to finish, then offers "Restart to update" to the renderer; "stay on this version" withdraws it', async () => {
    feed.publish({ version: '1.1.0', releaseNotes: 'New look.' });
    const installer = recordingInstaller();
    let settings: Settings = { ...DEFAULT_SETTINGS, updateFeed: { provider: 'generic', url: feed.url } };
    const core = fakeCore(settings);
    const slot = createUpdateSlot();
    const controller = await startAppUpdates({
      core, slot, isPackaged: true,
      loadUpdater: async () => new NodeFeedUpdater({
        currentVersion: '0.1.0', userDataPath: join(dir, 'state'), cacheDir: join(dir, 'cache'),
        feed: { provider: 'generic', url: 'http://127.0.0.1:9/unused/' }, platform: 'win32', installer,
      }),
      execPath: join(dir, 'app', 'Batchroom.exe'), platform: 'win32', env: {}, logger: silentLogger,
    });
    try {
      const handlers = createUpdateHandlers({ slot, settings: () => settings, currentVersion: '0.1.0' });
      core.busy = 1;
      expect(await handlers['update:check']({})).toMatchObject({ state: 'waiting', available: { version: '1.1.0', releaseNotes: 'New look.' } });
      expect((await handlers['update:install']({})).state).toBe('waiting');
      expect(installer.runs).toEqual([]);

      core.busy = 0;
      core.fire('batches:progress', {});
      expect(core.emitted.at(-1)).toMatchObject({ state: 'ready', message: 'Version 1.1.0 is ready. Restart to update.' });
      expect((await handlers['update:status']({})).state).toBe('ready');

      settings = { ...settings, updateStayOnThisVersion: true };
      core.fire('settings:changed', settings);
      expect(core.emitted.at(-1)).toMatchObject({ state: 'pinned', stayOnThisVersion: true });
      expect((await handlers['update:install']({})).state).toBe('pinned');
      expect(installer.runs).toEqual([]);
    } finally {
      controller?.stop();
    }
  });
});
