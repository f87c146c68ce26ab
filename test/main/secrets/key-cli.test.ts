import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/index';

// `batchroom key set|status|delete` as a user runs them: the real command, the real gnome-keyring (in a private
// D-Bus session) and the real sandbox service for validation.

const ROOT = resolve(__dirname, '../../..');
const hasDbus = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon']).status === 0;
const skip = !hasDbus && !process.env.CI;

const KEY = 'sk_test_clitestkey_abcdefgh1234';
const BAD = 'sk_live_notasandboxkey_00009999';

let sandbox: RunningSandbox;
let home: string;
beforeAll(async () => {
  sandbox = await startSandbox({ useEnv: false });
  home = mkdtempSync(join(tmpdir(), 'batchroom-keycli-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(home, { recursive: true, force: true });
});

function runShell(script: string, env: Record<string, string | undefined>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(timer);
      done({ stdout, stderr });
    });
  });
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

describe.skipIf(skip)('batchroom key (real CLI, real keyring, sandbox service)', () => {
  it('set → status → rejected set → delete → status', async () => {
    const stateDir = join(home, 'state');
    const cli = `node bin/batchroom.mjs --state-dir "$SD" --service-url "$URL" --json`;
    const script = [
      'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
      `printf '%s\\n' "$KEY" | ${cli} key set; echo "::rc=$?"`,
      `${cli} key status; echo "::rc=$?"`,
      `printf '%s' "$BAD" | ${cli} key set; echo "::rc=$?"`,
      `${cli} key delete; echo "::rc=$?"`,
      `${cli} key status; echo "::rc=$?"`,
    ].join('\n');
    const env: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_RUNTIME_DIR: home, SD: stateDir, URL: sandbox.url, KEY, BAD };
    delete env.DISPLAY;
    delete env.BATCHROOM_API_KEY;
    // Asynchronous on purpose: the sandbox answers from this process's event loop.
    const child = await runShell(script, env);
    const steps: { json: Record<string, unknown>; rc: number }[] = [];
    let pending: Record<string, unknown> = {};
    for (const line of child.stdout.split('\n')) {
      if (line.startsWith('::rc=')) {
        steps.push({ json: pending, rc: Number(line.slice(5)) });
        pending = {};
      } else if (line.startsWith('{')) pending = JSON.parse(line);
    }
    expect(steps, child.stderr).toHaveLength(5);
    const [set, status, rejected, deleted, after] = steps as [(typeof steps)[0], (typeof steps)[0], (typeof steps)[0], (typeof steps)[0], (typeof steps)[0]];
    expect(set).toMatchObject({ rc: 0, json: { ok: true, masked: 'sk_test_…1234', serviceUrl: sandbox.url } });
    expect(status.rc).toBe(0);
    expect(status.json).toMatchObject({ mode: 'live', source: 'keychain', keyMasked: 'sk_test_…1234', keychainAvailable: true });
    expect((status.json.balance as { apiCredits: number }).apiCredits).toBeGreaterThan(0);
    expect(rejected).toMatchObject({ rc: 3, json: { ok: false, reason: 'unauthorized' } });
    expect(deleted).toMatchObject({ rc: 0, json: { deleted: true, masked: 'sk_test_…1234' } });
    expect(after.json).toMatchObject({ hasKey: false, source: 'none' });

    // The key went to the keychain only: not to stdout/stderr, not to any file in the state dir.
    expect(child.stdout + child.stderr).not.toContain(KEY);
    expect(child.stdout + child.stderr).not.toContain(BAD);
    for (const file of allFiles(stateDir)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(KEY);
      expect(text, file).not.toContain(BAD);
    }
  }, 150_000);
});
