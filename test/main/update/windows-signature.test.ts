import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveUpdateConfig } from '../../../main/core/update/config';
import { createUpdateController } from '../../../main/core/update/controller';
import { NodeHttpExecutor } from '../../../main/core/update/node-updater';
import { startFeed, type Feed } from './feed';

// electron-updater's real Windows updater (NsisUpdater): after the sha512 check it verifies the installer's
// Authenticode publisher against app-update.yml's publisherName (PowerShell's Get-AuthenticodeSignature on Windows).
// Here the verifier is the injected part, so the test proves what the app does with its verdict: an installer not
// signed by the publisher is discarded and never run.

class RecordingNsisUpdater extends NsisUpdater {
  runs: string[] = [];
  protected override doInstall(): boolean {
    this.runs.push(this.installerPath ?? '');
    return true;
  }
}

let feed: Feed;
let dir: string;
beforeEach(async () => {
  feed = await startFeed();
  dir = mkdtempSync(join(tmpdir(), 'batchroom-nsis-'));
});
afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

function nsisUpdater(verdict: string | null, seen: Array<{ publishers: string[]; bytes: Buffer }>): RecordingNsisUpdater {
  mkdirSync(join(dir, 'cache'), { recursive: true });
  const configPath = join(dir, 'app-update.yml');
  // What electron-builder writes into a signed Windows build's resources.
  writeFileSync(configPath, JSON.stringify({ provider: 'generic', url: feed.url, publisherName: ['Batchroom Ltd'], updaterCacheDirName: 'batchroom-updater' }));
  const updater = new RecordingNsisUpdater(null, {
    version: '1.0.0', name: 'Batchroom', isPackaged: true, appUpdateConfigPath: configPath, userDataPath: join(dir, 'state'),
    baseCachePath: join(dir, 'cache'), whenReady: () => Promise.resolve(), relaunch: () => undefined, quit: () => undefined, onQuit: () => undefined,
  });
  Object.assign(updater, { httpExecutor: new NodeHttpExecutor(), _testOnlyOptions: { platform: 'win32', isUseDifferentialDownload: false } });
  updater.verifyUpdateCodeSignature = async (publishers, path) => {
    seen.push({ publishers, bytes: readFileSync(path) });
    return verdict;
  };
  return updater;
}

const installersIn = (d: string): string[] => (existsSync(d)
  ? readdirSync(d, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.exe')).map((e) => e.name)
  : []);

describe('Windows publisher signature (electron-updater NsisUpdater)', () => {
  const run = async (verdict: string | null) => {
    const { installer } = feed.publish({ version: '1.1.0' });
    const seen: Array<{ publishers: string[]; bytes: Buffer }> = [];
    const updater = nsisUpdater(verdict, seen);
    const controller = createUpdateController({
      updater, currentVersion: '1.0.0', workInFlight: () => null,
      config: () => resolveUpdateConfig({ updateChannel: 'stable', updateStayOnThisVersion: false, updateFeed: null }, { policy: null, path: null, problem: null }),
    });
    const status = await controller.check();
    return { installer, seen, updater, controller, status };
  };

  it('installs an installer signed by the publisher the app names', async () => {
    const { installer, seen, updater, controller, status } = await run(null);
    expect(status.state).toBe('ready');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.publishers).toEqual(['Batchroom Ltd']);
    expect(seen[0]!.bytes.equals(installer)).toBe(true);
    updater.install(false, true);
    expect(updater.runs).toHaveLength(1);
    expect(controller.status().state).toBe('ready');
  });

  it('discards an installer signed by someone else and never runs it', async () => {
    const { updater, controller, status } = await run('Signed by "CN=Someone Else", not by Batchroom Ltd');
    expect(status.state).toBe('failed');
    expect(status.message).toBe('The download of version 1.1.0 is not signed by Batchroom\'s publisher, so it was discarded and nothing was installed.');
    expect(installersIn(join(dir, 'cache'))).toEqual([]);
    expect(controller.install().state).toBe('failed');
    expect(updater.runs).toEqual([]);
  });
});
