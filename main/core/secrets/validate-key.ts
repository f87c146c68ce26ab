import { maskKey, redactSecrets } from '../../../shared/redact';
import { USER_AGENT } from '../../../shared/app-info';
import { BalanceSchema, type Balance } from '../../../shared/service/model';
import type { SecretStore } from './secret-store';
import { keyTransportProblem } from './key-transport';
import { normalizeServiceUrl } from './service-url';

export type KeyRejectReason = 'unauthorized' | 'network' | 'wrong-url' | 'malformed';

export type KeyValidation =
  | { ok: true; balance: Balance | null }
  | { ok: false; reason: Exclude<KeyRejectReason, 'malformed'>; detail: string };

/**
 * Checks a key by reading the balance. Injected, so this module does not depend on the service client; the CLI and
 * the Electron host pass one built on `createServiceClient` (or {@link createFetchKeyValidator}).
 */
export type KeyValidator = (serviceUrl: string, apiKey: string) => Promise<KeyValidation>;

export type SaveKeyResult =
  | { ok: true; serviceUrl: string; masked: string; balance: Balance | null }
  | { ok: false; serviceUrl: string; reason: KeyRejectReason; message: string };

const REASON_TEXT: Record<KeyRejectReason, string> = {
  unauthorized: 'the service rejected the key (unauthorized)',
  network: 'the service could not be reached',
  'wrong-url': 'the service URL does not look like a Batchroom service',
  malformed: 'that does not look like an API key',
};

/** A pasted key may carry a newline; anything with inner whitespace or control characters is a paste accident. */
function checkShape(apiKey: string): string | null {
  if (apiKey.length === 0) return 'the key is empty';
  if (/[\s\p{Cc}]/u.test(apiKey)) return 'the key contains spaces or control characters';
  if (apiKey.length < 8) return 'the key is too short';
  return null;
}

/**
 * Validates the key against the service (reading the balance) and stores it only when the service accepts it. A
 * rejected key is never stored; the message says why and never contains the key.
 */
export async function saveValidatedKey(input: {
  secretStore: SecretStore;
  serviceUrl: string;
  apiKey: string;
  validate: KeyValidator;
}): Promise<SaveKeyResult> {
  const serviceUrl = normalizeServiceUrl(input.serviceUrl);
  const apiKey = input.apiKey.trim();
  const shapeProblem = checkShape(apiKey);
  if (shapeProblem) {
    return { ok: false, serviceUrl, reason: 'malformed', message: `Key not saved: ${REASON_TEXT.malformed} (${shapeProblem}).` };
  }
  const transport = keyTransportProblem(serviceUrl, apiKey);
  if (transport) return { ok: false, serviceUrl, reason: 'malformed', message: `Key not saved and not sent: ${transport} (${serviceUrl}).` };
  let verdict: KeyValidation;
  try {
    verdict = await input.validate(serviceUrl, apiKey);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    verdict = { ok: false, reason: 'network', detail };
  }
  if (!verdict.ok) {
    const detail = redactSecrets(verdict.detail, [apiKey]);
    return {
      ok: false,
      serviceUrl,
      reason: verdict.reason,
      message: `Key not saved: ${REASON_TEXT[verdict.reason]} at ${serviceUrl}${detail ? ` (${detail})` : ''}.`,
    };
  }
  await input.secretStore.set(serviceUrl, apiKey);
  return { ok: true, serviceUrl, masked: maskKey(apiKey), balance: verdict.balance };
}

/** Error codes of Node's fetch (undici) that mean "this host does not exist" rather than "the network is down". */
const UNKNOWN_HOST_CODES = new Set(['ENOTFOUND']);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * A minimal validator over plain fetch (`GET {serviceUrl}/balance`), for hosts that have no service client at hand.
 * 401/403 → unauthorized; 404/405, an unknown host or a non-JSON answer → wrong URL; anything else → network.
 */
export function createFetchKeyValidator(options: { fetch?: typeof fetch; timeoutMs?: number } = {}): KeyValidator {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return async (serviceUrl, apiKey) => {
    let response: Response;
    try {
      response = await doFetch(`${serviceUrl}/balance`, {
        headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json', 'User-Agent': USER_AGENT },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const code = causeCode(error);
      if (code && UNKNOWN_HOST_CODES.has(code)) return { ok: false, reason: 'wrong-url', detail: 'host not found' };
      const name = (error as { name?: string } | null)?.name;
      const detail = name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (code ?? 'connection failed');
      return { ok: false, reason: 'network', detail };
    }
    if (response.status === 401 || response.status === 403) {
      return { ok: false, reason: 'unauthorized', detail: `HTTP ${response.status}` };
    }
    if (response.status === 404 || response.status === 405) {
      return { ok: false, reason: 'wrong-url', detail: `HTTP ${response.status} for /balance` };
    }
    if (!response.ok) return { ok: false, reason: 'network', detail: `HTTP ${response.status}` };
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { ok: false, reason: 'wrong-url', detail: 'the answer to /balance is not JSON' };
    }
    const parsed = BalanceSchema.safeParse(body);
    return { ok: true, balance: parsed.success ? parsed.data : null };
  };
}

