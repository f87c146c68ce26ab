import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// The studio ledger password through the app's channels with a REAL gnome-keyring (a private D-Bus session and a
// fresh HOME per run, as test/main/secrets/keychain.test.ts does) and a real PostgreSQL: saved from the app, it is
// the password the ledger then logs in with; without a keychain the user is told where else to put it.

const ROOT = resolve(__dirname, '../../..');
const SCRIPT = join(__dirname, 'fixtures', 'studio-keychain-script.ts');
const hasDbus = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { encoding: 'utf8' }).status === 0;
const skip = !hasDbus && !process.env.CI;
if (skip) console.warn('studio keychain tests skipped: dbus-run-session or gnome-keyring-daemon is not installed (they run under CI).');

let server: TestPostgres | undefined;
const homes: string[] = [];
beforeAll(async () => {
  if (!skip) server = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function run(scenario: string, shell: (node: string) => string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'batchroom-studio-keychain-'));
  homes.push(home);
  const node = `node --import tsx ${JSON.stringify(SCRIPT)} ${scenario}`;
  const [command, ...args] = shell(node);
  const childEnv: Record<string, string | undefined> = {
    ...process.env, HOME: home, XDG_RUNTIME_DIR: home, BATCHROOM_TEST_LEDGER_URL: server!.url, BATCHROOM_TEST_LEDGER_PASSWORD: server!.password, ...env,
  };
  delete childEnv.DISPLAY;
  delete childEnv.PGPASSWORD;
  delete childEnv.PGPASSFILE;
  const child = spawnSync(command!, args, { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 25_000 });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`studio keychain script failed (status ${child.status}):\n${child.stdout}\n${child.stderr}`);
  return JSON.parse(line);
}

describe.skipIf(skip)('studio ledger password in a real gnome-keyring', () => {
  it('saved from the app, it is what the ledger logs in with; forgotten, the login fails again', () => {
    const r = run('keyring', (node) => ['dbus-run-session', '--', 'sh', '-c', `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; ${node}`]);
    expect(r.before).toMatchObject({ ok: true, data: { ok: false } });
    expect(r.saved).toEqual({ ok: true, data: { ledger: server!.url, shadowedBy: null } });
    expect(r.after).toMatchObject({ ok: true, data: { ok: true, message: expect.stringMatching(/^connected to PostgreSQL/) } });
    expect(r.status).toMatchObject({ ok: true, data: { ledger: server!.url, instances: [] } });
    expect(r.forgot).toEqual({ ok: true, data: { ledger: server!.url, removed: true } });
    expect(r.afterForget).toMatchObject({ ok: true, data: { ok: false } });
    expect(JSON.stringify(r)).not.toContain(server!.password);
  });

  it('without a D-Bus session: keychain_unavailable, pointing to PGPASSWORD or ~/.pgpass', () => {
    const r = run('no-keyring', (node) => ['sh', '-c', node], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    expect(r.saved).toMatchObject({ ok: false, code: 'keychain_unavailable', hint: expect.stringMatching(/PGPASSWORD.*~\/\.pgpass/) });
    expect(JSON.stringify(r)).not.toContain(server!.password);
  });
});
