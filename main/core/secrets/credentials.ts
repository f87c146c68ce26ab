import { maskKey } from '../../../shared/redact';
import type { ActiveKeySource, KeyStatus, SandboxReason } from '../../../shared/settings/key-status';
import type { Settings } from '../../../shared/settings/schema';
import { KeychainUnavailableError, KeyTransportError, MissingApiKeyError } from './errors';
import { keyTransportProblem } from './key-transport';
import type { SecretStore } from './secret-store';
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
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Live credentials carry the key, so they mask themselves when serialized or printed: a stray
 * `JSON.stringify(credentials)` or `console.log(credentials)` cannot leak it.
 */
function liveCredentials(serviceUrl: string, apiKey: string, source: ActiveKeySource): LiveCredentials {
  // Checked for every source (flag, environment, keychain): a key set for one service never rides along to another
  // over plain http, and a sandbox key never leaves this machine.
  const problem = keyTransportProblem(serviceUrl, apiKey);
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
  return `No API key for ${serviceUrl}: ${tail} Add one with \`batchroom key set\` or in Settings.`;
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
  if (flagKey) return liveCredentials(serviceUrl, flagKey, 'flag');
  const envKey = nonEmpty(env[API_KEY_ENV]);
  if (envKey) return liveCredentials(serviceUrl, envKey, 'env');

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
    };
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError || error instanceof MissingApiKeyError || error instanceof KeyTransportError)) throw error;
    return {
      mode: 'live',
      serviceUrl: fallbackUrl,
      hasKey: false,
      keyMasked: null,
      source: 'none',
      sandboxReason: null,
      keychainAvailable,
      message: `${error.message} ${error.hint}`,
    };
  }
}
