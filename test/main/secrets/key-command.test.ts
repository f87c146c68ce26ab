import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerKeyCommand, type KeyCommandDeps } from '../../../main/cli/commands/key';
import { createInMemorySecretStore, type KeyValidator, type SecretStore } from '../../../main/core/secrets';

// The `key` commands in-process, over a fake keychain and a stub validator (the real keychain is covered by
// keychain.test.ts, the real command line by the CLI suite).

const GOOD = 'sk_live_commandtestkey0042';
const BALANCE = { apiCredits: 77, webCredits: { total: 0, breakdown: [] } };
const validator: KeyValidator = async (_url, key) =>
  key === GOOD ? { ok: true, balance: BALANCE } : { ok: false, reason: 'unauthorized', detail: 'HTTP 401' };

let stateDir: string;
let secretStore: SecretStore;
let out: string[];
let err: string[];
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'batchroom-keycmd-'));
  secretStore = createInMemorySecretStore();
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  process.exitCode = undefined;
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  rmSync(stateDir, { recursive: true, force: true });
});

async function run(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const program = new Command().exitOverride();
  for (const flag of ['--service-url <url>', '--api-key <key>', '--state-dir <dir>']) program.option(flag);
  program.option('--json').option('--quiet');
  const deps: KeyCommandDeps = {
    secretStore: () => secretStore,
    validator: () => validator,
    env: () => options.env ?? {},
    readKey: async () => (options.stdin ?? '').trim(),
  };
  registerKeyCommand(program, deps);
  out.length = 0;
  err.length = 0;
  process.exitCode = undefined;
  await program.parseAsync(['--state-dir', stateDir, ...args], { from: 'user' });
  return { stdout: out.join(''), stderr: err.join(''), code: process.exitCode ?? 0 };
}

describe('batchroom key', () => {
  it('set validates and stores; status shows the masked key and balance; delete removes it', async () => {
    const set = await run(['key', 'set'], { stdin: `${GOOD}\n` });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Saved sk_live_…0042 for https://api.batchroom-service.example/api/v1');
    expect(set.stdout).toContain('77 API credits');
    expect(await secretStore.get('https://api.batchroom-service.example')).toBe(GOOD);

    const status = await run(['--json', 'key', 'status']);
    const parsed = JSON.parse(status.stdout);
    expect(parsed).toMatchObject({ mode: 'live', keyMasked: 'sk_live_…0042', source: 'keychain', balance: BALANCE });
    expect(status.stdout).not.toContain(GOOD);

    const human = await run(['key', 'status']);
    expect(human.stdout).toMatch(/Key: +sk_live_…0042 \(from keychain\)/);
    expect(human.stdout).toMatch(/Balance: +77 API credits/);

    const del = await run(['key', 'delete']);
    expect(del.stdout).toContain('Deleted sk_live_…0042');
    expect(await secretStore.list()).toEqual([]);
    expect((await run(['key', 'delete'])).stdout).toContain('No key was stored');
  });

  it('refuses a rejected key with exit 3 and stores nothing', async () => {
    const bad = 'sk_live_rejected000000000';
    const set = await run(['key', 'set'], { stdin: bad });
    expect(set.code).toBe(3);
    expect(set.stderr).toMatch(/unauthorized/);
    expect(set.stdout + set.stderr).not.toContain(bad);
    expect(await secretStore.list()).toEqual([]);
    expect((await run(['key', 'set'], { stdin: 'short' })).code).toBe(2);
  });

  it('stores per --service-url and reports sandbox mode when the live service has no key', async () => {
    await run(['--service-url', 'http://127.0.0.1:9/api/v1', 'key', 'set'], { stdin: GOOD });
    expect(await secretStore.get('http://127.0.0.1:9')).toBe(GOOD);
    const status = JSON.parse((await run(['--json', 'key', 'status'])).stdout);
    expect(status).toMatchObject({ mode: 'sandbox', sandboxReason: 'no-key', hasKey: false, balance: null });
  });

  it('shows BATCHROOM_API_KEY as the source when set, and never writes the key to the state dir', async () => {
    const env = { BATCHROOM_API_KEY: GOOD };
    const status = JSON.parse((await run(['--json', 'key', 'status'], { env })).stdout);
    expect(status).toMatchObject({ mode: 'live', source: 'env', keyMasked: 'sk_live_…0042' });
    await run(['key', 'set'], { stdin: GOOD, env });
    for (const file of readdirSync(stateDir)) expect(readFileSync(join(stateDir, file), 'utf8')).not.toContain(GOOD);
  });

  it('reports a key the service no longer accepts with exit 3', async () => {
    await secretStore.set('https://api.batchroom-service.example', 'sk_live_revokedkey000000');
    const status = await run(['key', 'status']);
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/Balance: +not read \(unauthorized/);
  });
});
