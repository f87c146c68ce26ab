import { AppError } from '../../../shared/errors';
import { maskKey } from '../../../shared/redact';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Logger } from '../log';
import type { Credentials } from '../secrets';
import { createServiceClient } from '../service';
import type { ServiceClient } from '../service/types';
import type { EmbeddedService } from './types';

/** The service the core talks to right now: a live service with a key, the embedded sandbox, or neither (why). */
export interface Connection {
  readonly client: ServiceClient;
  readonly status: ServiceStatus;
  /** The key in use (live or sandbox), for redaction; null when there is none. */
  readonly apiKey: string | null;
  close(): Promise<void>;
}

/** A client whose every call fails with the reason no service is usable (no key, no keychain). */
function refusingClient(serviceUrl: string, error: AppError): ServiceClient {
  const refuse = () => Promise.reject(new AppError(error.code, error.message, { hint: error.hint, ...error.detail }));
  return {
    baseUrl: serviceUrl,
    account: {},
    listWorkflows: refuse,
    getWorkflow: refuse,
    execute: refuse,
    getExecution: refuse,
    getBalance: refuse,
    downloadResult: refuse,
  };
}

/** No usable key (missing, refused for this origin, keychain locked): every service call fails with that error. */
export function failedConnection(serviceUrl: string, error: AppError): Connection {
  const message = `${error.message}${error.hint ? ` ${error.hint}` : ''}`;
  return {
    client: refusingClient(serviceUrl, error),
    status: { mode: 'live', serviceUrl, keyMasked: null, keySource: 'none', message },
    apiKey: null,
    close: async () => undefined,
  };
}

/**
 * Opens the connection the credentials call for. Sandbox mode asks the host for its embedded service (the built-in
 * sandbox on a loopback port with its own sk_test_ key, closed again by `close`).
 */
export async function openConnection(credentials: Credentials, logger: Logger, startEmbedded?: () => Promise<EmbeddedService>): Promise<Connection> {
  if (credentials.mode === 'live') {
    const client = createServiceClient({ baseUrl: credentials.serviceUrl, apiKey: credentials.apiKey, logger });
    const from = { env: 'the BATCHROOM_API_KEY environment variable', flag: 'the --api-key flag', keychain: 'the OS keychain' }[credentials.source];
    return {
      client,
      status: {
        mode: 'live', serviceUrl: client.baseUrl, keyMasked: maskKey(credentials.apiKey), keySource: credentials.source,
        message: `Using the key from ${from} for ${client.baseUrl}.`,
      },
      apiKey: credentials.apiKey,
      close: async () => undefined,
    };
  }
  if (!startEmbedded) {
    return failedConnection(credentials.serviceUrl, new AppError('missing_key', 'No API key is set, and this host has no built-in sandbox.', { hint: 'Set a key in Settings, with `batchroom key set`, or in BATCHROOM_API_KEY.' }));
  }
  const sandbox = await startEmbedded();
  logger.info('embedded sandbox started', { url: sandbox.url });
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, logger });
  return {
    client,
    status: { mode: 'sandbox', serviceUrl: sandbox.url, keyMasked: maskKey(sandbox.apiKey), keySource: 'sandbox', sandboxReason: credentials.reason, message: credentials.message },
    apiKey: sandbox.apiKey,
    close: () => sandbox.close(),
  };
}

/**
 * A ServiceClient that always forwards to the current connection, so the engine and handlers keep one reference
 * while a key change (key:set, settings) swaps the service underneath.
 */
export function forwardingClient(current: () => ServiceClient): ServiceClient {
  return {
    get baseUrl() {
      return current().baseUrl;
    },
    get account() {
      return current().account;
    },
    get accountId() {
      return current().accountId;
    },
    listWorkflows: (...a) => current().listWorkflows(...a),
    getWorkflow: (...a) => current().getWorkflow(...a),
    execute: (...a) => current().execute(...a),
    getExecution: (...a) => current().getExecution(...a),
    getBalance: (...a) => current().getBalance(...a),
    downloadResult: (...a) => current().downloadResult(...a),
  };
}
