import { maskKey, redactSecrets } from '../../../shared/redact';
import type { Balance } from '../../../shared/service/model';
import type { SecretStore } from './secret-store';
import { keyTransportProblem } from './key-transport';
import { normalizeServiceUrl } from './service-url';

export type KeyRejectReason = 'unauthorized' | 'network' | 'wrong-url' | 'malformed';

export type KeyValidation =
  | { ok: true; balance: Balance | null }
  | { ok: false; reason: Exclude<KeyRejectReason, 'malformed'>; detail: string };

/**
 * Checks a key by reading the balance. Injected, so this module does not depend on the service client; every host
 * passes `serviceKeyValidator` (core/app/settings-handlers.ts), built on `createServiceClient`, so a key is checked
 * with the same requests, parsing and error rules as every other call.
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
