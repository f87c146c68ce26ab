import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';
import type { UpdateStatus } from '../../../shared/update/model';
import { resolveUpdateConfig, type UpdateSettings } from '../../../main/core/update/config';
import { createUpdateController, type UpdateController } from '../../../main/core/update/controller';
import { NodeFeedUpdater } from '../../../main/core/update/node-updater';
import { readUpdatePolicy } from '../../../main/core/update/policy-file';
import { recordingInstaller, startFeed, type Feed } from './feed';

// electron-updater's own AppUpdater against a real feed on 127.0.0.1; only the native installer is a stand-in.

let feed: Feed;
let dir: string;
let installer: ReturnType<typeof recordingInstaller>;
let quits: number;
let busy: string | null;
let settings: UpdateSettings;
let statuses: UpdateStatus[];

beforeEach(async () => {
  feed = await startFeed();
  dir = mkdtempSync(join(tmpdir(), 'batchroom-update-'));
  installer = recordingInstaller();
  quits = 0;
  busy = null;
  statuses = [];
  settings = { updateChannel: 'stable', updateStayOnThisVersion: false, updateFeed: { provider: 'generic', url: feed.url } };
});
afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

function controller(options: { platform?: NodeJS.Platform; currentVersion?: string; firstCheckMs?: number; checkEveryMs?: number } = {}): UpdateController {
  const currentVersion = options.currentVersion ?? '1.0.0';
  const updater = new NodeFeedUpdater({
    currentVersion, userDataPath: join(dir, 'state'), cacheDir: join(dir, 'cache'),
    feed: { provider: 'generic', url: feed.url }, platform: options.platform ?? 'win32', installer, quit: () => { quits += 1; },
  });
  return createUpdateController({
    updater, currentVersion,
    config: () => resolveUpdateConfig(settings, readUpdatePolicy([join(dir, 'policy')])),
    workInFlight: () => busy,
    onStatus: (s) => statuses.push(s),
    ...(options.firstCheckMs !== undefined ? { firstCheckMs: options.firstCheckMs } : {}),
    ...(options.checkEveryMs !== undefined ? { checkEveryMs: options.checkEveryMs } : {}),
  });
}

/** The real setTimeout, kept before any test fakes timers: real I/O (the feed's HTTP) is waited for with it. */
const realSetTimeout = globalThis.setTimeout;
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => realSetTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

const downloads = () => feed.requests.filter((p) => p.endsWith('.exe') || p.endsWith('.zip'));
/** Installers left in the updater's cache (pending or accepted). */
const cachedInstallers = (): string[] => {
  const found: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\.(exe|zip)$/.test(e.name)) found.push(join(d, e.name));
    }
  };
  walk(join(dir, 'cache'));
  return found;
};

describe('update controller against a real feed', () => {
  it('offers a newer version with its release notes and installs exactly the downloaded bytes', async () => {
    const { installer: bytes } = feed.publish({ version: '1.1.0', releaseNotes: 'Faster previews.\nFixes the RAW pairing.' });
    const c = controller();
    const status = await c.check();
    expect(status.state).toBe('ready');
    expect(status.available).toMatchObject({ version: '1.1.0', releaseNotes: 'Faster previews.\nFixes the RAW pairing.' });
    expect(statuses.map((s) => s.state)).toContain('downloading');
    expect(feed.requests).toContain('/releases/latest.yml');
    expect(installer.runs).toEqual([]);
    c.install();
    expect(installer.runs).toHaveLength(1);
    expect(installer.runs[0]!.bytes.equals(bytes)).toBe(true);
    // Silently (no installer wizard after "Restart to update"), and the app starts again.
    expect(installer.runs[0]).toMatchObject({ isSilent: true, isForceRunAfter: true });
    expect(c.status().state).toBe('installing');
    await new Promise((resolve) => setImmediate(resolve));
    expect(quits).toBe(1);
  });

  it('reads latest-mac.yml on macOS and downloads the zip', async () => {
    const { zipName } = feed.publish({ version: '1.1.0' });
    const status = await controller({ platform: 'darwin' }).check();
    expect(status.state).toBe('ready');
    expect(feed.requests).toContain('/releases/latest-mac.yml');
    expect(downloads()).toEqual([`/releases/${zipName}`]);
  });

  it('ignores the version it already runs', async () => {
    feed.publish({ version: '1.0.0' });
    const c = controller();
    const status = await c.check();
    expect(status.state).toBe('up-to-date');
    expect(status.available).toBeNull();
    expect(downloads()).toEqual([]);
    expect(c.install().state).toBe('up-to-date');
    expect(installer.runs).toEqual([]);
  });

  it('ignores a beta on the stable channel and offers it on the beta channel', async () => {
    feed.publish({ version: '1.0.0' });
    feed.publish({ version: '1.1.0-beta.1', channel: 'beta' });
    expect((await controller().check()).state).toBe('up-to-date');
    expect(feed.requests).not.toContain('/releases/beta.yml');
    expect(downloads()).toEqual([]);

    settings = { ...settings, updateChannel: 'beta' };
    const beta = await controller().check();
    expect(beta.state).toBe('ready');
    expect(beta.available?.version).toBe('1.1.0-beta.1');
    expect(feed.requests).toContain('/releases/beta.yml');
  });

  it('never offers a pre-release that a stable feed lists by mistake', async () => {
    feed.publish({ version: '1.1.0-beta.2' });
    expect((await controller().check()).state).toBe('up-to-date');
    expect(downloads()).toEqual([]);
  });

  it('skips a release staged to 0 % and takes it at 100 %', async () => {
    feed.publish({ version: '1.1.0', stagingPercentage: 0 });
    expect((await controller().check()).state).toBe('up-to-date');
    expect(downloads()).toEqual([]);
    feed.publish({ version: '1.1.0', stagingPercentage: 100 });
    expect((await controller().check()).state).toBe('ready');
  });

  it('refuses a download whose sha512 does not match the feed: discarded, never installed', async () => {
    const { exeName } = feed.publish({ version: '1.1.0', wrongSha512: true });
    const c = controller();
    const status = await c.check();
    expect(downloads()).toEqual([`/releases/${exeName}`]);
    expect(status.state).toBe('failed');
    expect(status.message).toMatch(/did not match the release's checksum \(sha512\), so it was discarded and nothing was installed/);
    expect(cachedInstallers()).toEqual([]);
    expect(c.install().state).toBe('failed');
    expect(installer.runs).toEqual([]);
  });

  it('does not install while a batch has work in flight, then offers it again once it ends', async () => {
    feed.publish({ version: '1.1.0' });
    busy = 'a batch is running';
    const c = controller();
    const status = await c.check();
    expect(status.state).toBe('waiting');
    expect(status.message).toBe('Version 1.1.0 is ready; it installs when nothing is in flight (now a batch is running).');
    expect(c.install().state).toBe('waiting');
    c.workChanged();
    expect(installer.runs).toEqual([]);

    busy = null;
    c.workChanged();
    expect(c.status().state).toBe('ready');
    expect(statuses.at(-1)?.state).toBe('ready');
    // Work that starts again withdraws the offer until it ends.
    busy = 'the hot folder Incoming has photos in flight';
    c.workChanged();
    expect(c.status().state).toBe('waiting');
    busy = null;
    c.workChanged();
    c.install();
    expect(installer.runs).toHaveLength(1);
  });

  it('stays on this version when Settings say so: the newer release is named, nothing downloaded', async () => {
    feed.publish({ version: '1.1.0' });
    settings = { ...settings, updateStayOnThisVersion: true };
    const c = controller();
    const status = await c.check();
    expect(status).toMatchObject({ state: 'pinned', managedBy: 'settings', stayOnThisVersion: true, available: { version: '1.1.0' } });
    expect(downloads()).toEqual([]);
    expect(c.install().state).toBe('pinned');
    expect(installer.runs).toEqual([]);
  });

  it('lets the admin\'s policy file win over Settings, both ways', async () => {
    feed.publish({ version: '1.1.0' });
    const policyDir = join(dir, 'policy');
    mkdirSync(policyDir);
    writeFileSync(join(policyDir, 'batchroom-policy.json'), JSON.stringify({ stayOnThisVersion: true }));
    const pinned = await controller().check();
    expect(pinned).toMatchObject({ state: 'pinned', managedBy: 'policy' });
    expect(pinned.message).toMatch(/administrator's update policy keeps this installation on 1\.0\.0/);
    expect(downloads()).toEqual([]);

    settings = { ...settings, updateStayOnThisVersion: true };
    writeFileSync(join(policyDir, 'batchroom-policy.json'), JSON.stringify({ stayOnThisVersion: false }));
    expect((await controller().check()).state).toBe('ready');

    // A policy file that cannot be understood keeps this version rather than guess what the admin meant.
    settings = { ...settings, updateStayOnThisVersion: false };
    writeFileSync(join(policyDir, 'batchroom-policy.json'), '{"stayOnThisVersion": "yes"}');
    const broken = await controller().check();
    expect(broken.state).toBe('pinned');
    expect(broken.message).toMatch(/is not valid \(stayOnThisVersion: .*\); updates stay off until it is fixed/);
  });

  it('checks once after start and then on every interval, and stops when stopped', async () => {
    feed.publish({ version: '1.0.0' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    try {
      const c = controller({ firstCheckMs: 1_000, checkEveryMs: 60_000 });
      const checks = () => feed.requests.filter((p) => p === '/releases/latest.yml').length;
      c.start();
      expect(checks()).toBe(0);
      vi.advanceTimersByTime(1_000);
      await until(() => c.status().state === 'up-to-date');
      expect(checks()).toBe(1);
      feed.publish({ version: '1.1.0' });
      vi.advanceTimersByTime(60_000);
      await until(() => c.status().state === 'ready');
      expect(checks()).toBe(2);
      c.stop();
      vi.advanceTimersByTime(600_000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(checks()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses the defaults a fresh installation has: stable, not pinned', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ updateChannel: 'stable', updateStayOnThisVersion: false, updateFeed: null });
  });
});
