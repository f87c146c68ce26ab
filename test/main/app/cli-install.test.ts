import { execFileSync, spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../../shared/app-info';
import { installCommandLineTool, uninstallCommandLineTool } from '../../../main/core/app/cli-install';
import { appCommandFor, consoleModeArgs, flushStdio } from '../../../main/core/app/console-mode';

// A folder only an administrator may write to, whoever runs the tests (root ignores permission bits).
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const adminOnly = (path: unknown) => String(path).includes('admin-only');
  const refuse = () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
  return {
    ...fs,
    mkdir: (path: string, options?: object) => (adminOnly(path) ? refuse() : fs.mkdir(path, options)),
    symlink: (target: string, path: string) => (adminOnly(path) ? refuse() : fs.symlink(target, path)),
    unlink: (path: string) => (adminOnly(path) ? refuse() : fs.unlink(path)),
  };
});

// "Install Command-Line Tool": a `batchroom` on the PATH that starts the app in console mode (`--cli`).

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const CONSOLE_APP = join(import.meta.dirname, 'fixtures', 'console-app.ts');
// The "app": this Node running a stand-in for the Electron entry, as Electron runs an unpackaged app (exe + folder).
const APP_COMMAND = [process.execPath, '--import', 'tsx', CONSOLE_APP];

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'br-cli-install-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('console mode', () => {
  it.each([
    [['/Applications/Batchroom.app/Contents/MacOS/Batchroom', '--cli', 'run', 'x'], true, ['run', 'x']],
    [['/usr/lib/electron', '/src/batchroom', '--cli', '--help'], false, ['--help']],
    [['C:\\Batchroom\\Batchroom.exe', '--cli'], true, []],
    [['/opt/Batchroom/batchroom', 'photo.jpg', '--cli'], true, null],
    [['/opt/Batchroom/batchroom'], true, null],
    [['/usr/lib/electron', '--cli', 'x'], false, null],
    // The launcher's `--` (for Electron on Windows, see CONSOLE_LAUNCH_ARGS) is dropped once; the user's own stays.
    [['C:\\Batchroom\\Batchroom.exe', '--cli', '--', 'run', '--service-url', 'https://x.example/', 'p'], true, ['run', '--service-url', 'https://x.example/', 'p']],
    [['/opt/Batchroom/batchroom', '--cli', '--', '--', 'x'], true, ['--', 'x']],
  ] as const)('%j (packaged %s) → %j', (argv, packaged, expected) => {
    expect(consoleModeArgs(argv, packaged)).toEqual(expected);
  });
});

describe('install command-line tool', () => {
  it('macOS/Linux: a launcher in the data folder, linked from the bin folder, that runs the command in the app and passes its exit code', async () => {
    const bin = join(dir, 'usr-local-bin');
    const data = join(dir, "Bat'chroom data");
    const result = await installCommandLineTool({ platform: 'linux', appCommand: APP_COMMAND, userData: data, env: { PATH: `/usr/bin:${bin}` }, binDir: bin });
    expect(result.path).toBe(join(bin, 'batchroom'));
    expect(result.message).toBe(`Installed ${join(bin, 'batchroom')}. Open a new terminal and type batchroom --help.`);
    expect(await readlink(result.path)).toBe(join(data, 'bin', 'batchroom'));
    const env = { ...process.env, BATCHROOM_STATE_DIR: join(dir, 'state') };
    expect(execFileSync(result.path, ['--version'], { encoding: 'utf8', cwd: REPO_ROOT, env }).trim()).toBe(APP_VERSION);
    // A URL followed by more arguments reaches the CLI as typed (Electron on Windows would refuse it without the `--`).
    expect(execFileSync(result.path, ['--service-url', 'https://example.invalid/', '--version'], { encoding: 'utf8', cwd: REPO_ROOT, env }).trim()).toBe(APP_VERSION);
    const missing = spawnSync(result.path, ['run', join(dir, 'no such folder'), '--workflow', 'color-grade', '--text', 'look=warm'], { encoding: 'utf8', cwd: REPO_ROOT, env });
    expect(missing.status, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('not found');
    // Installing again (a new app version) replaces our own link without asking.
    await installCommandLineTool({ platform: 'linux', appCommand: APP_COMMAND, userData: data, env: {}, binDir: bin });
    expect((await stat(result.path)).isFile()).toBe(true);
    expect(await readFile(join(data, 'bin', 'batchroom'), 'utf8')).toContain(`'${CONSOLE_APP}' --cli -- "$@"`);
  }, 60_000);

  it('never replaces a batchroom that someone else installed (npm link, a script of their own)', async () => {
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'batchroom'), '#!/bin/sh\necho mine\n');
    await expect(installCommandLineTool({ platform: 'darwin', appCommand: ['/Applications/Batchroom.app/Contents/MacOS/Batchroom'], userData: join(dir, 'data'), env: {}, binDir: bin }))
      .rejects.toMatchObject({ code: 'conflict', message: `${join(bin, 'batchroom')} already exists and was not installed by Batchroom: it was left as it is.` });
    expect(await readFile(join(bin, 'batchroom'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('a bin folder that cannot be written says what to do instead of failing quietly', async () => {
    const blocker = join(dir, 'not-a-folder');
    await writeFile(blocker, 'x');
    await expect(installCommandLineTool({ platform: 'linux', appCommand: ['/opt/Batchroom/batchroom'], userData: join(dir, 'data'), env: {}, binDir: join(blocker, 'bin') }))
      .rejects.toMatchObject({ message: expect.stringMatching(/^Could not write to .*not-a-folder\/bin/) });
  });

  it('Windows: batchroom.cmd in %LOCALAPPDATA%\\Programs\\Batchroom\\bin that starts the app with --cli, and a word on PATH when it is not there', async () => {
    const local = join(dir, 'AppData', 'Local');
    const result = await installCommandLineTool({
      platform: 'win32', appCommand: ['C:\\Program Files\\Batchroom\\Batchroom.exe'],
      userData: join(dir, 'AppData', 'Roaming', 'Batchroom'), env: { LOCALAPPDATA: local, PATH: 'C:\\Windows' },
    });
    const text = await readFile(result.path, 'utf8');
    expect(text).toBe('@echo off\r\nrem Installed by Batchroom (Install Command-Line Tool)\r\n"C:\\Program Files\\Batchroom\\Batchroom.exe" --cli -- %*\r\n');
    // A `%` in the app's folder stays literal (cmd.exe expands %…% inside a batch file).
    const odd = await installCommandLineTool({ platform: 'win32', appCommand: ['D:\\100%\\Batchroom.exe'], userData: '', env: { LOCALAPPDATA: join(dir, 'odd') } });
    expect(await readFile(odd.path, 'utf8')).toContain('"D:\\100%%\\Batchroom.exe" --cli -- %*');
    expect(result.message).toMatch(/^Installed .*batchroom\.cmd\. Add .*Programs.Batchroom.bin to your PATH/);
  });
});

describe('console mode exit', () => {
  it('flushStdio resolves only after what was written has been handed on (app.exit would drop it)', async () => {
    const events: string[] = [];
    const slowPipe = {
      destroyed: false, writable: true,
      write: (chunk: string, done: () => void) => {
        events.push(`write ${JSON.stringify(chunk)}`);
        setTimeout(() => { events.push('flushed'); done(); }, 20);
        return false;
      },
    } as unknown as NodeJS.WriteStream;
    await flushStdio([slowPipe]);
    events.push('exit');
    expect(events).toEqual(['write ""', 'flushed', 'exit']);
    // A closed stream (stdout of a finished pipe) does not hold the exit up.
    await flushStdio([{ destroyed: true, writable: false } as unknown as NodeJS.WriteStream]);
  });
});

describe('where the launcher points', () => {
  it('the executable; the app folder too when unpackaged; the AppImage file rather than its short-lived mount', () => {
    const base = { platform: 'darwin', execPath: '/Applications/Batchroom.app/Contents/MacOS/Batchroom', appPath: '/src/batchroom', packaged: true, env: {} };
    expect(appCommandFor(base)).toEqual(['/Applications/Batchroom.app/Contents/MacOS/Batchroom']);
    expect(appCommandFor({ ...base, execPath: '/src/batchroom/node_modules/electron/dist/electron', packaged: false }))
      .toEqual(['/src/batchroom/node_modules/electron/dist/electron', '/src/batchroom']);
    const appImage = { ...base, platform: 'linux', execPath: '/tmp/.mount_BatchrAbC123/batchroom', env: { APPIMAGE: '/home/ann/Apps/Batchroom-0.1.0.AppImage' } };
    expect(appCommandFor(appImage)).toEqual(['/home/ann/Apps/Batchroom-0.1.0.AppImage']);
    expect(appCommandFor({ ...appImage, env: {} })).toEqual(['/tmp/.mount_BatchrAbC123/batchroom']);
  });

  it('refuses an app running from its disk image or from a translocated copy, which would leave a dead command', async () => {
    for (const exe of ['/Volumes/Batchroom 0.1.0/Batchroom.app/Contents/MacOS/Batchroom', '/private/var/folders/ab/T/AppTranslocation/1F2E/d/Batchroom.app/Contents/MacOS/Batchroom']) {
      await expect(installCommandLineTool({ platform: 'darwin', appCommand: [exe], userData: join(dir, 'data'), env: {}, binDir: join(dir, 'bin') }))
        .rejects.toMatchObject({ code: 'unsupported', hint: 'Move Batchroom to the Applications folder, open it from there, then choose Install Command-Line Tool again.' });
    }
    await expect(stat(join(dir, 'bin'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a bin folder that needs an administrator (or does not exist yet) gets the one sudo line that makes it and links', async () => {
    const bin = join(dir, 'admin-only', 'bin');
    const launcher = join(dir, 'data', 'bin', 'batchroom');
    await expect(installCommandLineTool({ platform: 'darwin', appCommand: ['/Applications/Batchroom.app/Contents/MacOS/Batchroom'], userData: join(dir, 'data'), env: {}, binDir: bin }))
      .rejects.toMatchObject({
        code: 'unsupported',
        message: `${bin} needs an administrator to add batchroom there.`,
        hint: `In Terminal: sudo mkdir -p '${bin}' && sudo ln -sf '${launcher}' '${join(bin, 'batchroom')}'`,
      });
    // The launcher that line links to is already written.
    expect(await readFile(launcher, 'utf8')).toContain("exec '/Applications/Batchroom.app/Contents/MacOS/Batchroom' --cli -- \"$@\"");
  });
});

describe('uninstall command-line tool (macOS/Linux)', () => {
  it('removes the link and the launcher it points to; a foreign batchroom or one needing sudo is left, with what to do', async () => {
    const options = { platform: 'darwin', userData: join(dir, 'data'), env: {}, binDir: join(dir, 'bin') };
    const installed = await installCommandLineTool({ ...options, appCommand: ['/Applications/Batchroom.app/Contents/MacOS/Batchroom'] });
    expect((await uninstallCommandLineTool(options)).message).toBe(`Removed ${installed.path}.`);
    await expect(lstat(installed.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(lstat(join(dir, 'data', 'bin', 'batchroom'))).rejects.toMatchObject({ code: 'ENOENT' });
    // An npm link of the same name stays.
    await symlink('/usr/local/lib/node_modules/batchroom/bin/batchroom.mjs', installed.path);
    await expect(uninstallCommandLineTool(options)).rejects.toMatchObject({ code: 'conflict' });
    expect(await readlink(installed.path)).toBe('/usr/local/lib/node_modules/batchroom/bin/batchroom.mjs');
    // Ours, in a folder only an administrator may change.
    const adminBin = join(dir, 'admin-only');
    mkdirSync(adminBin); // node:fs, which the mock above leaves alone
    symlinkSync(join(dir, 'data', 'bin', 'batchroom'), join(adminBin, 'batchroom'));
    await expect(uninstallCommandLineTool({ ...options, binDir: adminBin }))
      .rejects.toMatchObject({ code: 'unsupported', hint: `In Terminal: sudo rm '${join(adminBin, 'batchroom')}'` });
  });
});
