import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  createFileKeyOrigins, createInMemorySecretStore, getKeyStatus, isLoopbackHost, KeyOriginError, KeyTransportError, resolveCredentials,
  saveValidatedKey, type KeyValidator,
} from '../../../main/core/secrets';

// A key goes only where it belongs: a stored key to the service it was saved for, a live key only over https (plain
// http only on this machine), a sandbox key never off this machine — whatever its source (flag, environment, keychain).

const LIVE = 'sk_live_abcdefghijklmnop1234';
const TEST = 'sk_test_abcdefghijklmnop1234';
const settings = (serviceUrl: string) => ({ serviceUrl, sandboxMode: 'auto' as const });

describe('where a key may be sent', () => {
  it.each([
    ['http://evil.example/api/v1', LIVE, 'env', 'live keys are only sent over https'],
    ['http://192.168.1.20:8080', LIVE, 'flag', 'live keys are only sent over https'],
    ['https://api.example.com', TEST, 'env', 'sandbox keys'],
    ['http://10.0.0.5:4000', TEST, 'flag', 'sandbox keys'],
  ] as const)('refuses %s with a %s key from the %s', async (serviceUrl, key, source, reason) => {
    const inputs = {
      settings: settings(serviceUrl), secretStore: createInMemorySecretStore(),
      env: source === 'env' ? { BATCHROOM_API_KEY: key } : {},
      flags: source === 'flag' ? { apiKey: key } : {},
    };
    const refusal = await resolveCredentials(inputs).then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(KeyTransportError);
    expect((refusal as Error).message).toContain(reason);
    expect((refusal as Error).message).not.toContain('abcdefghijklmnop');
  });

  it('refuses a keychain key too when its service URL was changed to plain http', async () => {
    const secretStore = createInMemorySecretStore();
    await secretStore.set('http://nas.example/api/v1', LIVE);
    await expect(resolveCredentials({ settings: settings('http://nas.example'), env: {}, secretStore })).rejects.toBeInstanceOf(KeyTransportError);
  });

  it.each([
    ['https://api.example.com', LIVE],
    ['http://127.0.0.1:4010', LIVE],
    ['http://localhost:4010', TEST],
    ['http://[::1]:4010', TEST],
  ] as const)('sends to %s', async (serviceUrl, key) => {
    const credentials = await resolveCredentials({ settings: settings(serviceUrl), env: { BATCHROOM_API_KEY: key }, secretStore: createInMemorySecretStore() });
    expect(credentials.mode).toBe('live');
  });

  it('binds a stored key to the service it was saved for: another URL does not get it', async () => {
    const secretStore = createInMemorySecretStore();
    await secretStore.set('https://api.example.com/api/v1', LIVE);
    const other = await resolveCredentials({ settings: settings('https://other.example'), env: {}, secretStore });
    expect(other.mode).toBe('sandbox');
    const same = await resolveCredentials({ settings: settings('https://API.example.com/'), env: {}, secretStore });
    expect(same.mode === 'live' && same.apiKey).toBe(LIVE);
  });

  it('never sends a key to validate it where it must not go', async () => {
    const validate = vi.fn<KeyValidator>(async () => ({ ok: true, balance: null }));
    const secretStore = createInMemorySecretStore();
    const saved = await saveValidatedKey({ secretStore, serviceUrl: 'http://evil.example', apiKey: LIVE, validate });
    expect(saved.ok).toBe(false);
    expect(validate).not.toHaveBeenCalled();
    expect(await secretStore.get('http://evil.example/api/v1')).toBeNull();
  });

  it.each([
    ['localhost', true], ['LOCALHOST', true], ['127.0.0.1', true], ['127.8.9.10', true], ['[::1]', true], ['::1', true],
    ['[::ffff:7f00:1]', true],
    // A *.localhost name is resolved by whatever DNS the machine uses: not loopback for a key (issue 30 item 8).
    ['app.localhost', false], ['evil.localhost', false], ['localhost.', false], ['localhost.evil.example', false],
    ['192.168.1.1', false], ['example.com', false], ['0.0.0.0', false], ['128.0.0.1', false], ['[::2]', false],
    ['[::ffff:a00:1]', false],
  ] as const)('%s is loopback: %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it.each(['http://evil.localhost:4010', 'http://app.localhost'])('never sends a live or sandbox key over plain http to %s', async (serviceUrl) => {
    for (const key of [LIVE, TEST]) {
      await expect(resolveCredentials({ settings: settings(serviceUrl), env: { BATCHROOM_API_KEY: key }, secretStore: createInMemorySecretStore() }))
        .rejects.toBeInstanceOf(KeyTransportError);
    }
  });

  it('binds a key from the environment or --api-key to the first service origin it is sent to (trust on first use)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchroom-origins-'));
    try {
      const keyOrigins = createFileKeyOrigins(dir);
      const env = { BATCHROOM_API_KEY: LIVE };
      const secretStore = createInMemorySecretStore();
      const first = await resolveCredentials({ settings: settings('https://api.example.com'), env, secretStore, keyOrigins });
      expect(first.mode).toBe('live');
      // The settings now point elsewhere: the key stays home, and the refusal names both services, never the key.
      const moved = { settings: settings('https://collector.example.net'), env, secretStore, keyOrigins: createFileKeyOrigins(dir) };
      const refusal = await resolveCredentials(moved).then(() => null, (error: unknown) => error);
      expect(refusal).toBeInstanceOf(KeyOriginError);
      expect(refusal).toBeInstanceOf(KeyTransportError);
      expect((refusal as Error).message).toContain('first used with https://api.example.com');
      expect((refusal as Error).message).toContain('https://collector.example.net');
      expect((refusal as Error).message).not.toContain('abcdefghijklmnop');
      expect(await getKeyStatus(moved)).toMatchObject({ hasKey: false, awaitingOriginConfirmation: true });
      // The CLI's explicit pair (--service-url with the key) is the user's say: it rebinds.
      const paired = await resolveCredentials({ ...moved, flags: { serviceUrl: 'https://collector.example.net' } });
      expect(paired.mode).toBe('live');
      expect((await resolveCredentials(moved)).mode).toBe('live');
      await expect(resolveCredentials({ ...moved, settings: settings('https://api.example.com') })).rejects.toBeInstanceOf(KeyOriginError);
      // The record holds fingerprints only, readable by this user alone.
      const file = join(dir, 'key-origins.json');
      expect(readFileSync(file, 'utf8')).not.toContain('abcdefghijklmnop');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never binds a key the transport rules refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchroom-origins-'));
    try {
      const keyOrigins = createFileKeyOrigins(dir);
      await expect(resolveCredentials({ settings: settings('http://evil.example'), env: { BATCHROOM_API_KEY: LIVE }, secretStore: createInMemorySecretStore(), keyOrigins }))
        .rejects.toThrow(/only sent over https/);
      expect(keyOrigins.originOf(LIVE)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists the keys saved for other services (masked) so the app can offer one for a new URL', async () => {
    const secretStore = createInMemorySecretStore();
    await secretStore.set('https://api.example.com/api/v1', LIVE);
    const status = await getKeyStatus({ settings: settings('https://other.example'), env: {}, secretStore });
    expect(status.hasKey).toBe(false);
    expect(status.otherServiceKeys).toEqual([{ serviceUrl: 'https://api.example.com/api/v1', keyMasked: 'sk_live_…1234' }]);
  });
});
