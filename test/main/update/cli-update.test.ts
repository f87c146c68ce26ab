import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../../shared/app-info';
import { cliEnv, runCli } from '../cli/run-cli';
import { startFeed, type Feed } from './feed';

// The real `batchroom` command against a real feed on 127.0.0.1 (BATCHROOM_UPDATE_FEED_URL). The CLI reads the feed
// file of the machine it runs on (latest.yml on Windows, latest-mac.yml on macOS, latest-linux[-arm64].yml on Linux):
// the feed has them all, the Linux ones written here as electron-builder writes them.

let feed: Feed;
let dir: string;
let env: Record<string, string>;

const [major, minor] = APP_VERSION.split('.').map(Number) as [number, number];
const NEWER = `${major}.${minor + 1}.0`;

const FEED_FILE = process.platform === 'win32' ? 'latest.yml' : process.platform === 'darwin' ? 'latest-mac.yml'
  : `latest-linux${process.arch === 'x64' ? '' : `-${process.arch}`}.yml`;

function publishLinux(version: string, channel: 'latest' | 'beta' = 'latest'): void {
  const { exeName } = feed.publish({ version, channel, releaseNotes: 'Batches resume faster.' });
  const linuxFile = `${channel}-linux${process.arch === 'x64' ? '' : `-${process.arch}`}.yml`;
  writeFileSync(join(feed.dir, 'releases', linuxFile), [
    `version: ${version}`, 'files:', `  - url: ${exeName.replace('.exe', '.AppImage')}`, '    sha512: AAAA', '    size: 4',
    `path: ${exeName.replace('.exe', '.AppImage')}`, 'sha512: AAAA', 'releaseNotes: Batches resume faster.', '',
  ].join('\n'));
}

beforeEach(async () => {
  feed = await startFeed();
  dir = mkdtempSync(join(tmpdir(), 'batchroom-cli-update-'));
  env = cliEnv(join(dir, 'state'), { BATCHROOM_UPDATE_FEED_URL: feed.url, BATCHROOM_POLICY_DIR: join(dir, 'policy') });
});
afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('batchroom update --check', () => {
  it('says when a newer release exists, with its notes, and downloads nothing', async () => {
    publishLinux(NEWER);
    const result = await runCli(['update', '--check'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`Batchroom ${NEWER} is available on the stable channel (this is ${APP_VERSION}).`);
    expect(result.stdout).toContain('  Batches resume faster.');
    expect(feed.requests).toEqual([`/releases/${FEED_FILE}`]);
  });

  it('says this is the newest when the feed has the same version, and --json says newer: false', async () => {
    publishLinux(APP_VERSION);
    const human = await runCli(['update', '--check'], env);
    expect(human.stdout.trim()).toBe(`Batchroom ${APP_VERSION} is the newest release on the stable channel.`);
    const json = await runCli(['--json', 'update', '--check'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ newer: false, currentVersion: APP_VERSION, channel: 'stable', available: null });
  });

  it('names the policy file that keeps this installation on its version', async () => {
    publishLinux(NEWER);
    mkdirSync(join(dir, 'policy'));
    writeFileSync(join(dir, 'policy', 'batchroom-policy.json'), JSON.stringify({ stayOnThisVersion: true }));
    const result = await runCli(['update', '--check'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`This installation stays on ${APP_VERSION}: set by the update policy file ${join(dir, 'policy', 'batchroom-policy.json')}.`);
  });

  it('says plainly when the feed cannot be read, and fails', async () => {
    const url = feed.url;
    await feed.close();
    const result = await runCli(['update', '--check'], { ...env, BATCHROOM_UPDATE_FEED_URL: url });
    feed = await startFeed();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not read the update feed');
    expect(result.stderr).toContain('Check the network connection, or the feed in Settings › Updates');
  });

  it('leaves --version offline', async () => {
    publishLinux(NEWER);
    const result = await runCli(['--version'], env);
    expect(result.stdout.trim()).toBe(APP_VERSION);
    expect(feed.requests).toEqual([]);
  });
});
