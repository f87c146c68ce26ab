import { maskKey } from '../../../shared/redact';
import type { ActiveKeySource, KeyStatus, SandboxReason } from '../../../shared/settings/key-status';
import type { Settings } from '../../../shared/settings/schema';
import { isUnsetServiceUrl } from '../../../shared/settings/service-url';
import { CREDENTIAL_CODES, isAppError } from '../../../shared/errors';
import { KeychainUnavailableError, KeyOriginError, KeyTransportError, MissingApiKeyError } from './errors';
import type { SecretStore } from './secret-store';
import type { KeyOrigins } from './key-origins';
import { keyTransportProblem as transportProblem } from './key-transport';
import { normalizeServiceUrl } from './service-url';

/** The environment variable that overrides the keychain (headless servers, CI). */
export const API_KEY_ENV = 'BATCHROOM_API_KEY';

export interface LiveCredentials {
  mode: 'live';
  serviceUrl: string;
  apiKey: string;
  source: ActiveKeySource;
}

export interface SandboxCredentials {
  mode: 'sandbox';
  reason: SandboxReason;
  /** The live service URL that had no usable key (for messages). */
  serviceUrl: string;
  /** One sentence saying that Batchroom runs against the sandbox, and why. */
  message: string;
}

export type Credentials = LiveCredentials | SandboxCredentials;

export interface CredentialInputs {
  settings: Pick<Settings, 'serviceUrl' | 'sandboxMode'>;
  env: Readonly<Record<string, string | undefined>>;
  secretStore: SecretStore;
  /** Command-line overrides; an explicit service URL means "this live service", never the sandbox. */
  flags?: { serviceUrl?: string | undefined; apiKey?: string | undefined };
  /** Where flag/environment keys were first used (trust on first use). The core passes its state dir's record;
   * without one (unit tests of other rules) the origin is not checked. */
  keyOrigins?: KeyOrigins;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Live credentials carry the key, so they mask themselves when serialized or printed: a stray
 * `JSON.stringify(credentials)` or `console.log(credentials)` cannot leak it.
 */
function liveCredentials(serviceUrl: string, apiKey: string, source: ActiveKeySource): LiveCredentials {
  // Checked for every source (flag, environment, keychain): a key set for one service never rides along to another
  // over plain http, and a sandbox key never leaves this machine.
  const problem = transportProblem(serviceUrl, apiKey);
  if (problem) throw new KeyTransportError(serviceUrl, problem);
  const safe = () => ({ mode: 'live', serviceUrl, apiKey: maskKey(apiKey), source });
  const credentials: LiveCredentials = { mode: 'live', serviceUrl, apiKey, source };
  Object.defineProperty(credentials, 'toJSON', { value: safe, enumerable: false });
  Object.defineProperty(credentials, INSPECT, { value: safe, enumerable: false });
  return credentials;
}

function sandboxMessage(reason: SandboxReason, serviceUrl: string, keychainError?: KeychainUnavailableError): string {
  const tail = 'running against the built-in sandbox (simulated results, no credits spent).';
  if (reason === 'sandbox-mode-always') return `Sandbox mode is set to "always": ${tail}`;
  if (reason === 'keychain-unavailable') {
    return `${keychainError?.message ?? 'The OS keychain is not available.'} No API key for ${serviceUrl}: ${tail} ${keychainError?.hint ?? ''}`.trim();
  }
  // The placeholder address is no service at all: naming it would send the user looking for a key for it.
  if (isUnsetServiceUrl(serviceUrl)) return `No service set: ${tail} Set your provider's address (Settings, or --service-url) and an API key (Settings, or \`batchroom key set\`).`;
  return `No API key for ${serviceUrl}: ${tail} Add one with \`batchroom key set\` or in Settings.`;
}

/**
 * A flag/environment key goes to the service origin it was first used with. Another origin needs the user's say:
 * `--service-url` given with the key (the CLI's explicit pair) or the app's confirmation (`key:allowOrigin`), which
 * rebind it. Checked after the transport rules, so a refused key is never bound.
 */
function bindOrRefuse(origins: KeyOrigins, serviceUrl: string, apiKey: string, source: ActiveKeySource, urlGivenWithKey: boolean): void {
  const origin = new URL(serviceUrl).origin;
  const bound = origins.originOf(apiKey);
  if (bound === origin) return;
  if (bound === null || urlGivenWithKey) {
    origins.bind(apiKey, origin);
    return;
  }
  const from = source === 'flag' ? 'the key from --api-key' : `the key from ${API_KEY_ENV}`;
  throw new KeyOriginError(serviceUrl, `${from} was first used with ${bound}, and the service is now ${origin}`);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Decides which service to talk to and with which key. Precedence: `--api-key` flag, then BATCHROOM_API_KEY, then
 * the keychain entry for the service URL. With no key, sandbox mode "auto" falls back to the built-in sandbox (which
 * issues its own sk_test_ key) and says so; "never" or an explicit `--service-url` fail with the reason instead.
 */
export async function resolveCredentials(inputs: CredentialInputs): Promise<Credentials> {
  const { settings, env, secretStore, flags = {} } = inputs;
  const explicitUrl = nonEmpty(flags.serviceUrl);
  const serviceUrl = normalizeServiceUrl(explicitUrl ?? settings.serviceUrl);

  if (settings.sandboxMode === 'always' && !explicitUrl) {
    return { mode: 'sandbox', reason: 'sandbox-mode-always', serviceUrl, message: sandboxMessage('sandbox-mode-always', serviceUrl) };
  }

  const flagKey = nonEmpty(flags.apiKey);
  const envKey = nonEmpty(env[API_KEY_ENV]);
  const unboundKey = flagKey ?? envKey;
  if (unboundKey) {
    const source: ActiveKeySource = flagKey ? 'flag' : 'env';
    const credentials = liveCredentials(serviceUrl, unboundKey, source);
    if (inputs.keyOrigins) bindOrRefuse(inputs.keyOrigins, serviceUrl, unboundKey, source, explicitUrl !== undefined);
    return credentials;
  }

  let keychainError: KeychainUnavailableError | undefined;
  try {
    const stored = await secretStore.get(serviceUrl);
    if (stored) return liveCredentials(serviceUrl, stored, 'keychain');
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    keychainError = error;
  }

  if (settings.sandboxMode === 'never' || explicitUrl) throw keychainError ?? new MissingApiKeyError(serviceUrl);
  const reason: SandboxReason = keychainError ? 'keychain-unavailable' : 'no-key';
  return { mode: 'sandbox', reason, serviceUrl, message: sandboxMessage(reason, serviceUrl, keychainError) };
}

/** Whether the keychain answers at all (a read of the service URL's entry). */
async function probeKeychain(secretStore: SecretStore, serviceUrl: string): Promise<KeychainUnavailableError | null> {
  try {
    await secretStore.get(serviceUrl);
    return null;
  } catch (error) {
    if (error instanceof KeychainUnavailableError) return error;
    throw error;
  }
}

/** The key situation for the renderer and `batchroom key status`: masked key, URL, mode and source, never the key. */
export async function getKeyStatus(inputs: CredentialInputs): Promise<KeyStatus> {
  const fallbackUrl = normalizeServiceUrl(nonEmpty(inputs.flags?.serviceUrl) ?? inputs.settings.serviceUrl);
  const keychainError = await probeKeychain(inputs.secretStore, fallbackUrl);
  const keychainAvailable = !keychainError;
  const status = await keyStatusFor(inputs, fallbackUrl, keychainAvailable);
  const stored = keychainAvailable ? await inputs.secretStore.list().catch(() => []) : [];
  status.otherServiceKeys = stored.filter((k) => k.serviceUrl !== status.serviceUrl).map((k) => ({ serviceUrl: k.serviceUrl, keyMasked: k.masked }));
  return status;
}

async function keyStatusFor(inputs: CredentialInputs, fallbackUrl: string, keychainAvailable: boolean): Promise<KeyStatus> {
  try {
    const credentials = await resolveCredentials(inputs);
    if (credentials.mode === 'live') {
      const from = { env: `the ${API_KEY_ENV} environment variable`, flag: 'the --api-key flag', keychain: 'the OS keychain' }[credentials.source];
      return {
        mode: 'live',
        serviceUrl: credentials.serviceUrl,
        hasKey: true,
        keyMasked: maskKey(credentials.apiKey),
        source: credentials.source,
        sandboxReason: null,
        keychainAvailable,
        message: `Using the key from ${from} for ${credentials.serviceUrl}.`,
        otherServiceKeys: [],
        awaitingOriginConfirmation: false,
      };
    }
    return {
      mode: 'sandbox',
      serviceUrl: credentials.serviceUrl,
      hasKey: false,
      keyMasked: null,
      source: 'none',
      sandboxReason: credentials.reason,
      keychainAvailable,
      message: credentials.message,
      otherServiceKeys: [],
      awaitingOriginConfirmation: false,
    };
  } catch (error) {
    if (!isAppError(error) || !CREDENTIAL_CODES.has(error.code)) throw error;
    return {
      mode: 'live',
      serviceUrl: fallbackUrl,
      hasKey: false,
      keyMasked: null,
      source: 'none',
      sandboxReason: null,
      keychainAvailable,
      message: `${error.message}${error.hint ? ` ${error.hint}` : ''}`,
      otherServiceKeys: [],
      awaitingOriginConfirmation: error instanceof KeyOriginError,
    };
  }
}
