import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  KeychainUnavailableError,
  MissingApiKeyError,
  createInMemorySecretStore,
  getKeyStatus,
  resolveCredentials,
  type SecretStore,
} from '../../../main/core/secrets';
import { LIVE_SERVICE_URL } from '../../../shared/settings/schema';

// Callers' logic over a fake keychain; the keychain itself is tested against gnome-keyring in keychain.test.ts.
const URL = 'https://api.live.example/api/v1';
const auto = { serviceUrl: URL, sandboxMode: 'auto' as const };
const KEY = 'sk_live_keychainkey00001234';

async function storeWithKey(): Promise<SecretStore> {
  const store = createInMemorySecretStore();
  await store.set(URL, KEY);
  return store;
}

const brokenStore: SecretStore = {
  get: () => Promise.reject(new KeychainUnavailableError('Cannot autolaunch D-Bus without X11 $DISPLAY')),
  set: () => Promise.reject(new KeychainUnavailableError('no bus')),
  delete: () => Promise.reject(new KeychainUnavailableError('no bus')),
  masked: () => Promise.reject(new KeychainUnavailableError('no bus')),
  list: () => Promise.reject(new KeychainUnavailableError('no bus')),
};

describe('resolveCredentials', () => {
  it('prefers the --api-key flag, then BATCHROOM_API_KEY, then the keychain', async () => {
    const secretStore = await storeWithKey();
    const env = { BATCHROOM_API_KEY: 'sk_live_environmentkey5678' };
    const flag = await resolveCredentials({ settings: auto, env, secretStore, flags: { apiKey: 'sk_live_flagkey000009999' } });
    expect(flag).toMatchObject({ mode: 'live', source: 'flag', apiKey: 'sk_live_flagkey000009999' });
    expect(await resolveCredentials({ settings: auto, env, secretStore })).toMatchObject({ source: 'env', apiKey: env.BATCHROOM_API_KEY });
    expect(await resolveCredentials({ settings: auto, env: { BATCHROOM_API_KEY: '  ' }, secretStore })).toMatchObject({ source: 'keychain', apiKey: KEY });
  });

  it('finds the keychain entry whatever the spelling of the service URL in settings', async () => {
    const secretStore = await storeWithKey();
    const creds = await resolveCredentials({ settings: { serviceUrl: 'https://API.live.example/', sandboxMode: 'auto' }, env: {}, secretStore });
    expect(creds).toMatchObject({ mode: 'live', serviceUrl: URL, source: 'keychain' });
  });

  it('masks the key when live credentials are serialized or printed', async () => {
    const creds = await resolveCredentials({ settings: auto, env: {}, secretStore: await storeWithKey() });
    expect(JSON.stringify(creds)).not.toContain(KEY);
    expect(inspect(creds)).not.toContain(KEY);
    expect(JSON.stringify(creds)).toContain('sk_live_…1234');
  });

  it('with no key runs against the sandbox and says so; "always" uses the sandbox even with a key', async () => {
    const none = await resolveCredentials({ settings: auto, env: {}, secretStore: createInMemorySecretStore() });
    expect(none).toMatchObject({ mode: 'sandbox', reason: 'no-key', serviceUrl: URL });
    expect(none.mode === 'sandbox' && none.message).toMatch(/sandbox/);
    // The placeholder address is no service: the message asks for one instead of naming it.
    const unset = await resolveCredentials({ settings: { ...auto, serviceUrl: LIVE_SERVICE_URL }, env: {}, secretStore: createInMemorySecretStore() });
    expect(unset.mode === 'sandbox' && unset.message).toMatch(/^No service set: running against the built-in sandbox .* Set your provider's address/);
    expect(unset.mode === 'sandbox' && unset.message).not.toContain('.example');
    const always = await resolveCredentials({ settings: { ...auto, sandboxMode: 'always' }, env: {}, secretStore: await storeWithKey() });
    expect(always).toMatchObject({ mode: 'sandbox', reason: 'sandbox-mode-always' });
  });

  it('refuses to fall back to the sandbox when the live service is required', async () => {
    const empty = createInMemorySecretStore();
    await expect(resolveCredentials({ settings: { ...auto, sandboxMode: 'never' }, env: {}, secretStore: empty })).rejects.toThrow(MissingApiKeyError);
    await expect(
      resolveCredentials({ settings: auto, env: {}, secretStore: empty, flags: { serviceUrl: 'https://staging.example' } }),
    ).rejects.toThrow(/No API key for https:\/\/staging\.example\/api\/v1/);
    await expect(resolveCredentials({ settings: { ...auto, sandboxMode: 'never' }, env: {}, secretStore: brokenStore })).rejects.toThrow(
      KeychainUnavailableError,
    );
  });

  it('an unavailable keychain means sandbox in auto mode, with the way out in the message', async () => {
    const creds = await resolveCredentials({ settings: auto, env: {}, secretStore: brokenStore });
    expect(creds).toMatchObject({ mode: 'sandbox', reason: 'keychain-unavailable' });
    expect(creds.mode === 'sandbox' && creds.message).toContain('BATCHROOM_API_KEY');
  });
});

describe('getKeyStatus', () => {
  it('reports the masked key and its source, never the key', async () => {
    const status = await getKeyStatus({ settings: auto, env: {}, secretStore: await storeWithKey() });
    expect(status).toEqual({
      mode: 'live',
      serviceUrl: URL,
      hasKey: true,
      keyMasked: 'sk_live_…1234',
      source: 'keychain',
      sandboxReason: null,
      keychainAvailable: true,
      message: `Using the key from the OS keychain for ${URL}.`,
      otherServiceKeys: [],
      awaitingOriginConfirmation: false,
    });
    expect(JSON.stringify(status)).not.toContain(KEY);
  });

  it('reports a missing key in "never" mode and an unavailable keychain without throwing', async () => {
    const missing = await getKeyStatus({ settings: { ...auto, sandboxMode: 'never' }, env: {}, secretStore: createInMemorySecretStore() });
    expect(missing).toMatchObject({ mode: 'live', hasKey: false, keyMasked: null, source: 'none', keychainAvailable: true });
    expect(missing.message).toMatch(/No API key/);
    const broken = await getKeyStatus({ settings: auto, env: { BATCHROOM_API_KEY: 'sk_live_environmentkey5678' }, secretStore: brokenStore });
    expect(broken).toMatchObject({ mode: 'live', source: 'env', keyMasked: 'sk_live_…5678', keychainAvailable: false });
  });
});
