import { maskKey } from '../../../shared/redact';
import { APP_NAME } from '../../../shared/app-info';
import { KeychainUnavailableError } from './errors';
import { normalizeServiceUrl } from './service-url';

/** The keychain "service" entry every Batchroom key is filed under; the account is the normalized service URL. */
export const KEYCHAIN_SERVICE = APP_NAME;

/** The subset of keytar Batchroom uses; injectable so callers' unit tests can use {@link createInMemorySecretStore}. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

export interface StoredKeyInfo {
  serviceUrl: string;
  masked: string;
}

/** API keys per service URL. Every method normalizes the URL, so spelling variants share one entry. */
export interface SecretStore {
  get(serviceUrl: string): Promise<string | null>;
  /** Stores without validating; use `saveValidatedKey` for anything a user typed. */
  set(serviceUrl: string, apiKey: string): Promise<void>;
  /** Resolves true when a key existed and was removed. */
  delete(serviceUrl: string): Promise<boolean>;
  /** `sk_live_…abcd`, or null when no key is stored. */
  masked(serviceUrl: string): Promise<string | null>;
  /** Every stored service URL with its masked key (never the key itself). */
  list(): Promise<StoredKeyInfo[]>;
}

export interface KeychainSecretStoreOptions {
  /** Defaults to the real keytar, loaded lazily so a missing native module becomes a KeychainUnavailableError. */
  keytar?: KeytarLike;
  /** Keychain service name; tests may isolate themselves with another one. */
  service?: string;
}

async function loadKeytar(): Promise<KeytarLike> {
  try {
    const mod = (await import('keytar')) as unknown as { default?: KeytarLike } & KeytarLike;
    return mod.default ?? mod;
  } catch (error) {
    throw new KeychainUnavailableError(`the keytar native module could not be loaded: ${messageOf(error)}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Every failure of the OS keychain becomes a KeychainUnavailableError (keytar rejects with plain Errors such as
 * "Cannot autolaunch D-Bus without X11 $DISPLAY" or "Object does not exist at path …/collection/login").
 */
async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof KeychainUnavailableError) throw error;
    throw new KeychainUnavailableError(messageOf(error));
  }
}

export function createKeychainSecretStore(options: KeychainSecretStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  let keytarPromise: Promise<KeytarLike> | undefined = options.keytar ? Promise.resolve(options.keytar) : undefined;
  const keytar = (): Promise<KeytarLike> => (keytarPromise ??= loadKeytar());

  const get = (serviceUrl: string): Promise<string | null> => {
    const account = normalizeServiceUrl(serviceUrl);
    return guarded(async () => (await keytar()).getPassword(service, account));
  };

  return {
    get,
    set(serviceUrl, apiKey) {
      const account = normalizeServiceUrl(serviceUrl);
      const value = apiKey.trim();
      if (!value) return Promise.reject(new Error('Refusing to store an empty API key.'));
      return guarded(async () => (await keytar()).setPassword(service, account, value));
    },
    delete(serviceUrl) {
      const account = normalizeServiceUrl(serviceUrl);
      return guarded(async () => (await keytar()).deletePassword(service, account));
    },
    async masked(serviceUrl) {
      const key = await get(serviceUrl);
      return key ? maskKey(key) : null;
    },
    list() {
      return guarded(async () => {
        const found = await (await keytar()).findCredentials(service);
        return found
          .map((entry) => ({ serviceUrl: entry.account, masked: maskKey(entry.password) }))
          .sort((a, b) => a.serviceUrl.localeCompare(b.serviceUrl));
      });
    },
  };
}

/**
 * A keytar stand-in held in memory, for unit tests of callers only (the issue requires the keychain tests
 * themselves to run against a real keyring). Nothing is ever written to disk.
 */
export function createInMemoryKeytar(): KeytarLike & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const id = (service: string, account: string) => `${service}\u0000${account}`;
  return {
    entries,
    async getPassword(service, account) {
      return entries.get(id(service, account)) ?? null;
    },
    async setPassword(service, account, password) {
      entries.set(id(service, account), password);
    },
    async deletePassword(service, account) {
      return entries.delete(id(service, account));
    },
    async findCredentials(service) {
      return [...entries]
        .filter(([k]) => k.startsWith(`${service}\u0000`))
        .map(([k, password]) => ({ account: k.slice(service.length + 1), password }));
    },
  };
}

/** A SecretStore over {@link createInMemoryKeytar}: for callers' unit tests. */
export function createInMemorySecretStore(): SecretStore {
  return createKeychainSecretStore({ keytar: createInMemoryKeytar() });
}
