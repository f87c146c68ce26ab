import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INVOKE_CHANNELS } from '../../../shared/ipc/contract';
import { APP_VERSION } from '../../../shared/app-info';
// @ts-expect-error plain .mjs build script without type declarations
import { buildElectron } from '../../../scripts/build-electron.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
let dir: string;

interface Report {
  privileged: string[];
  protocols: string[];
  windows: Array<{ webPreferences: Record<string, unknown> }>;
  ipcChannels: number;
  loaded: string;
  calls: Record<string, { ok: boolean; code?: string; data?: Record<string, unknown> }>;
  index: { status: number; csp: string };
  errors: string[];
  switches: Array<[string, string | null]>;
  relaunched: { args?: string[] } | null;
}

beforeAll(async () => {
  // The app's layout in miniature: dist/electron (bundles), dist/renderer, node_modules beside them.
  dir = mkdtempSync(join(tmpdir(), 'batchroom-bundle-'));
  await buildElectron({ outDir: join(dir, 'dist', 'electron') });
  mkdirSync(join(dir, 'dist', 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'renderer', 'index.html'), '<!doctype html><title>Batchroom</title>');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), process.platform === 'win32' ? 'junction' : 'dir');
  mkdirSync(join(dir, 'home'));
  // A real (tiny) JPEG: previews judge a file by its bytes, and SOI+EOI alone is no picture.
  writeFileSync(join(dir, 'home', 'photo.jpg'), await sharp({ create: { width: 8, height: 6, channels: 3, background: '#39c' } }).jpeg().toBuffer());
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundled main process against a fake Electron', () => {
  it('starts the real core, serves the renderer, answers IPC and quits gracefully', () => {
    const home = join(dir, 'home');
    const result = spawnSync(process.execPath, ['--import', join(import.meta.dirname, 'fixtures', 'fake-electron.mjs'), join(dir, 'dist', 'electron', 'main.cjs')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      // No D-Bus session: the keychain is unavailable and the core falls back to its built-in sandbox.
      // BATCHROOM_MEMORY_PROFILE: as after the one relaunch that gives the process its memory settings (tested below).
      env: { PATH: process.env.PATH, HOME: home, FAKE_ELECTRON_HOME: home, BATCHROOM_STATE_DIR: join(home, 'state'), BATCHROOM_MEMORY_PROFILE: '1' },
    });
    const line = result.stdout.trim().split('\n').at(-1) ?? '';
    expect(result.status, `${result.stderr}\n${result.stdout}`).toBe(0);
    const report = JSON.parse(line) as Report;
    expect(report.errors).toEqual([]);
    expect(report.relaunched).toBeNull();
    expect(report.switches).toContainEqual(['js-flags', expect.stringContaining('--max-old-space-size=')]);
    expect(report.privileged).toEqual(['batchroom', 'batchroom-media']);
    expect(report.protocols.sort()).toEqual(['batchroom', 'batchroom-media']);
    expect(report.windows).toHaveLength(1);
    expect(report.windows[0]!.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(report.windows[0]!.webPreferences.preload).toBe(join(dir, 'dist', 'electron', 'preload.cjs'));
    expect(report.loaded).toBe('batchroom://app/index.html');
    expect(report.ipcChannels).toBe(INVOKE_CHANNELS.length);
    expect(report.calls.info).toMatchObject({ ok: true, data: { host: 'electron' } });
    expect(report.calls.status).toMatchObject({ ok: true });
    expect(report.calls.previewUngranted).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(report.calls.picked).toMatchObject({ ok: true });
    expect(report.calls.preview).toMatchObject({ ok: true, data: { url: expect.stringMatching(/^batchroom-media:\/\/file\//) } });
    expect(report.calls.foreign).toMatchObject({ ok: false, code: 'untrusted_sender' });
    expect(report.calls.malformed).toMatchObject({ ok: false, code: 'bad_request' });
    expect(report.index.status).toBe(200);
    expect(report.index.csp).toContain("script-src 'self'");
    // Logs go to the OS log folder, as JSON lines; the refused message is on record.
    const log = readFileSync(join(home, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('refused IPC message');
    expect(existsSync(join(home, 'state', 'settings.json'))).toBe(true);
  });
  it.runIf(process.platform === 'linux')('starts once more with the memory settings when launched without them', () => {
    const home = join(dir, 'home');
    const result = spawnSync(process.execPath, ['--import', join(import.meta.dirname, 'fixtures', 'fake-electron.mjs'), join(dir, 'dist', 'electron', 'main.cjs')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: home, FAKE_ELECTRON_HOME: home, BATCHROOM_STATE_DIR: join(home, 'state-relaunch') },
    });
    expect(result.status, `${result.stderr}\n${result.stdout}`).toBe(0);
    const report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as Report;
    expect(report.errors).toEqual([]);
    expect(report.relaunched?.args).toContainEqual(expect.stringMatching(/^--js-flags=.*--max-old-space-size=/));
    expect(report.windows).toHaveLength(0); // nothing started before the relaunch
  });
  it('runs the command-line tool in console mode (--cli): its output and exit code, no window', () => {
    const home = join(dir, 'home');
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', join(import.meta.dirname, 'fixtures', 'fake-electron.mjs'), join(dir, 'dist', 'electron', 'main.cjs'), '--cli', ...args], {
      cwd: dir, encoding: 'utf8', timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: home, FAKE_ELECTRON_HOME: home, BATCHROOM_STATE_DIR: join(home, 'state-cli') },
    });
    const version = run(['--version']);
    expect(version.status, version.stderr).toBe(0);
    const [first, last] = [version.stdout.split('\n')[0], version.stdout.trim().split('\n').at(-1)];
    expect(first).toBe(APP_VERSION);
    expect((JSON.parse(last ?? '') as Report).windows).toEqual([]);
    const unknown = run(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
  });
  it('console mode calls no Electron function but app.dock.hide and app.exit: no lock, relaunch, switch, protocol or window', () => {
    const home = join(dir, 'home');
    const run = (args: string[], report: string) => {
      const result = spawnSync(process.execPath, ['--import', join(import.meta.dirname, 'fixtures', 'fake-electron-console.mjs'), join(dir, 'dist', 'electron', 'main.cjs'), '--cli', '--', ...args], {
        cwd: dir, encoding: 'utf8', timeout: 60_000,
        env: { PATH: process.env.PATH, HOME: home, BATCHROOM_STATE_DIR: join(home, 'state-cli'), FAKE_ELECTRON_REPORT: report },
      });
      return { ...result, touched: (JSON.parse(readFileSync(report, 'utf8')) as { touched: string[] }).touched };
    };
    const version = run(['--version'], join(dir, 'console-1.json'));
    expect(version.stdout).toBe(`${APP_VERSION}\n`);
    expect(version.touched).toEqual(['app.dock.hide', 'app.exit(0)']);
    const unknown = run(['frobnicate', 'https://example.invalid/', '--json'], join(dir, 'console-2.json'));
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(unknown.touched).toEqual(['app.dock.hide', 'app.exit(2)']);
  });
  it('loads only packages an installer packs: the CLI\'s own (console mode) among them, none that electron-builder.yml leaves out', () => {
    const code = readFileSync(join(dir, 'dist', 'electron', 'main.cjs'), 'utf8');
    const packageOf = (request: string) => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');
    const loaded = new Set([...code.matchAll(/(?:require|import)\("([^".][^"]*)"\)/g)]
      .map((m) => m[1]!).filter((r) => !r.startsWith('node:') && !builtinModules.includes(r)).map(packageOf));
    const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { files: string[] };
    const leftOut = config.files.filter((f) => f.startsWith('!node_modules/{')).flatMap((f) => /\{([^}]*)\}/.exec(f)![1]!.split(','));
    expect(leftOut).toContain('tsx'); // the pattern this reads is still there
    for (const name of ['commander', 'cli-progress', 'sharp', 'keytar']) expect(loaded).toContain(name);
    expect([...loaded].filter((name) => leftOut.includes(name))).toEqual([]);
  });
});
