import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The keychain tests run against a REAL gnome-keyring: each scenario starts a private D-Bus session with a fresh
// HOME, unlocks a new login keyring there, and runs fixtures/keychain-script.ts in it (a mock would prove nothing
// about keytar, libsecret or the Secret Service).

const ROOT = resolve(__dirname, '../../..');
const SCRIPT = join(__dirname, 'fixtures', 'keychain-script.ts');
const hasDbus = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { encoding: 'utf8' }).status === 0;
const skip = !hasDbus && !process.env.CI;
if (skip) console.warn('keychain tests skipped: dbus-run-session or gnome-keyring-daemon is not installed (they run under CI).');

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function run(scenario: string, shell: (node: string) => string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'batchroom-keychain-'));
  homes.push(home);
  const node = `node --import tsx ${JSON.stringify(SCRIPT)} ${scenario}`;
  const [command, ...args] = shell(node);
  const childEnv: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_RUNTIME_DIR: home, ...env };
  delete childEnv.DISPLAY;
  delete childEnv.BATCHROOM_API_KEY;
  for (const key of Object.keys(env)) childEnv[key] = env[key];
  const child = spawnSync(command!, args, { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 25_000 });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) {
    throw new Error(`keychain script failed (status ${child.status}):\n${child.stdout}\n${child.stderr}`);
  }
  return JSON.parse(line);
}

const unlocked = (node: string) => [
  'dbus-run-session',
  '--',
  'sh',
  '-c',
  `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; ${node}`,
];

describe.skipIf(skip)('SecretStore against a real gnome-keyring', () => {
  // One keyring session serves the three assertions below (each session costs a D-Bus daemon and a keyring).
  let cached: ReturnType<typeof run> | undefined;
  const keyringRun = () => (cached ??= run('keyring', unlocked));

  it('stores, reads, masks, lists and deletes keys per normalized service URL', () => {
    const r = keyringRun();
    expect(r.afterSet.live).toBe('sk_live_abcdefghijkl1234');
    expect(r.afterSet.staging).toBe('sk_live_zyxwvutsrqpo9876');
    expect(r.afterSet.maskedLive).toBe('sk_live_…1234');
    expect(r.afterSet.list).toEqual([
      { serviceUrl: 'http://staging.example:8080/api/v1', masked: 'sk_live_…9876' },
      { serviceUrl: 'https://api.live.example/api/v1', masked: 'sk_live_…1234' },
    ]);
    expect(r.deletedLive).toBe(true);
    expect(r.deletedAgain).toBe(false);
    expect(r.afterDelete).toEqual({ live: null, staging: 'sk_live_zyxwvutsrqpo9876' });
    expect(r.finalList).toEqual([]);
  });

  it('stores a key only after the validator accepts it, and never echoes a rejected key', () => {
    const r = keyringRun();
    expect(r.rejected).toMatchObject({ ok: false, reason: 'unauthorized', serviceUrl: 'https://other.example/api/v1' });
    expect(r.rejected.message).not.toContain('sk_live_rejectedkey0000');
    expect(r.accepted).toMatchObject({ ok: true, masked: 'sk_live_…1111' });
    expect(r.otherStored).toBe('sk_live_acceptedkey1111');
  });

  it('resolves credentials from the keychain, lets BATCHROOM_API_KEY override it, and falls back to the sandbox', () => {
    const r = keyringRun();
    expect(r.fromKeychain).toMatchObject({ mode: 'live', source: 'keychain', apiKey: 'sk_live_abcdefghijkl1234' });
    expect(r.fromKeychain.json).not.toContain('sk_live_abcdefghijkl1234');
    expect(r.fromEnv.source).toBe('env');
    expect(r.status).toMatchObject({ mode: 'live', hasKey: true, keyMasked: 'sk_live_…1234', source: 'keychain', keychainAvailable: true });
    expect(JSON.stringify(r.status)).not.toContain('abcdefghijkl');
    expect(r.sandbox).toMatchObject({ mode: 'sandbox', reason: 'no-key' });
  });
});

function expectUnavailable(r: { get: { error?: { name: string; message: string; hint?: string } }; isTyped: boolean }) {
  expect(r.get.error?.name).toBe('KeychainUnavailableError');
  expect(r.isTyped).toBe(true);
  expect(r.get.error?.hint).toContain('BATCHROOM_API_KEY');
  expect(r.get.error?.hint).toMatch(/Unlock your keychain/);
  // Spoken to the user: the system's own words (D-Bus, X11, object paths) stay out of the message.
  expect(r.get.error?.message).not.toMatch(/D-Bus|DBus|X11|DISPLAY|org\.freedesktop|\/collection\//);
}

describe.skipIf(skip)('no usable Secret Service', () => {
  it('without a D-Bus session: a KeychainUnavailableError naming both ways out, sandbox in auto mode, env key still works', () => {
    const r = run('no-keyring', (node) => ['sh', '-c', node], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    expectUnavailable(r);
    expect(r.set.error?.name).toBe('KeychainUnavailableError');
    expect(r.auto.value).toMatchObject({ mode: 'sandbox', reason: 'keychain-unavailable' });
    expect(r.never.error?.name).toBe('KeychainUnavailableError');
    expect(r.env.value).toEqual({ mode: 'live', source: 'env' });
    expect(r.status).toMatchObject({ mode: 'sandbox', keychainAvailable: false, sandboxReason: 'keychain-unavailable' });
  });

  it('with a bus but no unlocked keyring: reads find nothing, saving fails with the typed error (no plain-text fallback)', () => {
    const r = run('no-keyring', (node) => ['dbus-run-session', '--', 'sh', '-c', node]);
    expect(r.get).toEqual({ value: null });
    expect(r.set.error?.name).toBe('KeychainUnavailableError');
    expect(r.set.error?.hint).toContain('BATCHROOM_API_KEY');
  });
});
