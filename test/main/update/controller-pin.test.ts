import { describe, expect, it } from 'vitest';
import { createUpdateController } from '../../../main/core/update/controller';
import type { EffectiveUpdateConfig } from '../../../main/core/update/config';

function fakeUpdater() {
  let release!: () => void;
  const calls: string[] = [];
  const u = {
    autoDownload: true, allowDowngrade: true, allowPrerelease: false, autoInstallOnAppQuit: true, channel: null as string | null,
    logger: null as unknown,
    on() { return u; },
    setFeedURL() {},
    checkForUpdates: async () => ({ isUpdateAvailable: true, updateInfo: { version: '2.0.0', files: [], path: '', sha512: '', releaseDate: '' } }),
    downloadUpdate: () => new Promise<void>((r) => { release = r; }),
    quitAndInstall: () => { calls.push('install'); },
  };
  return { u, calls, finish: () => release() };
}

// Found by a review (issue 33 #1): "stay on this version" chosen during a download, and a policy file dropped in after
// one is ready, each withdraw the offer and nothing is installed; a feed removed goes back to the built-in one.

describe('update controller: stay on this version at any moment', () => {
  it('"Stay on this version" chosen while it downloads: not offered, and Install does nothing', async () => {
    const f = fakeUpdater();
    let cfg: EffectiveUpdateConfig = { channel: 'stable', stayOnThisVersion: false, managedBy: 'settings', feed: null, problem: null };
    const c = createUpdateController({ updater: f.u as never, currentVersion: '1.0.0', config: () => cfg, workInFlight: () => null });
    const p = c.check();
    await new Promise((r) => setTimeout(r, 10));
    expect(c.status().state).toBe('downloading');
    cfg = { ...cfg, stayOnThisVersion: true };
    c.configChanged();
    expect(c.status().state).toBe('pinned');
    f.finish();
    await p;
    expect(c.status().state).toBe('pinned');
    c.install();
    expect(f.calls).toEqual([]);
  });
  it('a policy file dropped in after the download is ready: the next check withdraws it, nothing installs on quit or on click', async () => {
    const f = fakeUpdater();
    let cfg: EffectiveUpdateConfig = { channel: 'stable', stayOnThisVersion: false, managedBy: 'settings', feed: null, problem: null };
    const c = createUpdateController({ updater: f.u as never, currentVersion: '1.0.0', config: () => cfg, workInFlight: () => null });
    const p = c.check();
    await new Promise((r) => setTimeout(r, 10));
    f.finish();
    await p;
    expect(c.status().state).toBe('ready');
    // admin drops batchroom-policy.json {stayOnThisVersion:true}; no settings:changed fires
    cfg = { ...cfg, stayOnThisVersion: true, managedBy: 'policy' };
    await c.check(); // the interval check
    c.install();
    expect(f.u.autoInstallOnAppQuit).toBe(false);
    expect(f.calls).toEqual([]);
  });

  it('a custom feed removed goes back to the built-in feed (electron-updater reads app-update.yml again)', async () => {
    const feeds: unknown[] = [];
    const u = {
      autoDownload: true, allowDowngrade: true, allowPrerelease: false, autoInstallOnAppQuit: true, channel: null as string | null, logger: null as unknown,
      on() { return u; },
      setFeedURL(o: unknown) { feeds.push(o); },
      clientPromise: 'mirror' as unknown,
      checkForUpdates: async () => ({ isUpdateAvailable: false, updateInfo: { version: '1.0.0' } }),
    };
    let cfg: EffectiveUpdateConfig = { channel: 'stable', stayOnThisVersion: false, managedBy: 'policy', feed: { provider: 'generic', url: 'http://mirror.example/' }, problem: null };
    const c = createUpdateController({ updater: u as never, currentVersion: '1.0.0', config: () => cfg, workInFlight: () => null });
    await c.check();
    expect(feeds.length).toBe(1);
    cfg = { ...cfg, feed: null, managedBy: 'settings' };
    await c.check();
    // Pointed back at app-update.yml: electron-updater makes its provider again from it when it has none.
    expect((u as unknown as { clientPromise: unknown }).clientPromise).toBeNull();
    expect(feeds.length).toBe(1);
  });
});
