import { redactSecrets } from '../../../shared/redact';
import { ServiceError, type ServiceErrorCode } from './errors';
import { isRecord, pickValue, toNumber, toText } from './normalize/wire';

const MAX_MESSAGE = 300;

/** Long base64 runs (echoed data URLs) become a short placeholder: image bytes never reach a message or a log. */
export function scrubImageBytes(text: string): string {
  return text
    .replace(/data:([\w.+-]+\/[\w.+-]+);base64,[A-Za-z0-9+/=_-]{16,}/gi, 'data:$1;base64,…')
    .replace(/[A-Za-z0-9+/=]{200,}/g, '…');
}

/** Redacted, image-free, single-line and bounded: safe for a person, a log file and an IPC envelope. */
export function safeText(text: string, secrets: readonly string[]): string {
  const clean = scrubImageBytes(redactSecrets(text, secrets)).replace(/\s+/g, ' ').trim();
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE - 1)}…` : clean;
}

export interface ErrorBodyFacts {
  message?: string;
  code?: string;
  field?: string;
  retryAfterMs?: number;
  required?: number;
  available?: number;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return toText(value);
  if (isRecord(value)) return toText(pickValue(value, ['message', 'msg', 'detail', 'description', 'title', 'reason', 'error']));
  return undefined;
}

function fieldOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const raw = pickValue(value, ['field', 'param', 'parameter', 'path', 'loc', 'pointer', 'property', 'key']);
  if (Array.isArray(raw)) return raw.filter((p) => p !== 'body').map(String).join('.') || undefined;
  return toText(raw)?.replace(/^\/+/, '').replace(/\//g, '.');
}

/**
 * Reads an error body of any common shape: `{error: "…"}`, `{error: {code, message, field}}`, `{message}`,
 * `{detail: "…" | [{loc, msg}]}`, `{errors: ["…" | {field, message}]}`, RFC 7807 `{title, detail}`, or plain text.
 */
export function readErrorBody(body: unknown): ErrorBodyFacts {
  if (typeof body === 'string') {
    const looksLikeHtml = /^\s*</.test(body);
    return looksLikeHtml || body.trim() === '' ? {} : { message: body };
  }
  if (!isRecord(body)) return {};
  const facts: ErrorBodyFacts = {};
  const error = pickValue(body, ['error', 'err', 'fault']);
  const errorRecord = isRecord(error) ? error : undefined;
  const errors = pickValue(errorRecord ?? body, ['errors', 'details', 'issues', 'problems']) ?? pickValue(body, ['errors']);
  const firstOfList = Array.isArray(errors) ? errors[0] : undefined;
  const detail = pickValue(body, ['detail']);
  const detailFirst = Array.isArray(detail) ? detail[0] : undefined;

  facts.message =
    textOf(errorRecord) ??
    (typeof error === 'string' ? toText(error) : undefined) ??
    toText(pickValue(body, ['message', 'msg', 'errorMessage', 'error_description', 'description'])) ??
    (typeof detail === 'string' ? toText(detail) : textOf(detailFirst)) ??
    toText(pickValue(body, ['title'])) ??
    textOf(firstOfList);
  if (typeof error === 'string' && facts.message && errorRecord === undefined) {
    // `{error: "invalid_api_key", message: "The key is wrong"}`: the short one is the code.
    const message = toText(pickValue(body, ['message', 'error_description']));
    if (message && /^[a-z0-9_.-]+$/i.test(error)) {
      facts.code = error;
      facts.message = message;
    }
  }
  facts.code ??= toText(pickValue(errorRecord ?? {}, ['code', 'type', 'reason'])) ?? toText(pickValue(body, ['code', 'errorCode', 'type']));
  facts.field = fieldOf(errorRecord) ?? fieldOf(body) ?? fieldOf(firstOfList) ?? fieldOf(detailFirst);

  const source = { ...body, ...(errorRecord ?? {}) };
  const seconds = toNumber(pickValue(source, ['retryAfterSeconds', 'retryAfter', 'retryIn', 'waitSeconds']));
  const ms = toNumber(pickValue(source, ['retryAfterMs', 'retryAfterMilliseconds']));
  if (ms !== undefined) facts.retryAfterMs = Math.max(0, ms);
  else if (seconds !== undefined) facts.retryAfterMs = Math.max(0, seconds * 1000);
  const required = toNumber(pickValue(source, ['required', 'requiredCredits', 'needed', 'creditsRequired', 'cost', 'creditCost']));
  const available = toNumber(pickValue(source, ['available', 'availableCredits', 'balance', 'remaining', 'creditsAvailable', 'apiCredits']));
  if (required !== undefined) facts.required = required;
  if (available !== undefined) facts.available = available;
  return facts;
}

/** `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

// Error codes in bodies beat the status: services disagree on the status for "no credits" (402, 403, 400…).
const CODE_PATTERNS: [RegExp, ServiceErrorCode][] = [
  [/insufficient|not_?enough|credit|quota|balance|payment/i, 'insufficient_credits'],
  [/unauthori[sz]ed|api_?key|auth|forbidden|token/i, 'unauthorized'],
  [/(^|[^a-z])rate|too_?many|throttl|concurrency/i, 'rate_limited'],
  [/too_?large|payload|too_?big/i, 'payload_too_large'],
  [/unsupported_?media|unsupported_?content|media_?type|corrupt|image_?format|decode/i, 'unsupported_media'],
  [/not_?found|expired|gone/i, 'not_found'],
  [/valid|invalid|bad_?request|unprocessable|missing/i, 'validation'],
];

function codeFromStatus(status: number): ServiceErrorCode {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 402) return 'insufficient_credits';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'validation';
  return 'server';
}

const HEADLINES: Record<ServiceErrorCode, string> = {
  unauthorized: 'The service rejected the API key',
  insufficient_credits: 'Not enough credits for this request',
  not_found: 'The service does not know this item',
  validation: 'The service rejected the request as invalid',
  rate_limited: 'The service is rate-limiting requests',
  payload_too_large: 'The request is too large for the service (try smaller images)',
  unsupported_media: 'The service cannot read this image format',
  server: 'The service had an internal problem',
  network: 'The service could not be reached',
  timeout: 'The service did not answer in time',
  shape: 'The service answered in a form Batchroom does not understand',
  conflict: 'The service refused the request because of a conflict',
  cancelled: 'The request was cancelled',
  unsupported: 'This is not supported',
};

/** Maps a non-2xx answer onto the taxonomy with a plain-language message that quotes the service, redacted. */
export function errorFromResponse(input: {
  status: number;
  body: unknown;
  retryAfterHeader: string | null;
  endpoint: string;
  secrets: readonly string[];
}): ServiceError {
  const facts = readErrorBody(input.body);
  const byCode = facts.code ? CODE_PATTERNS.find(([pattern]) => pattern.test(facts.code!))?.[1] : undefined;
  // A 5xx is the service's problem whatever its body code says; otherwise a recognised body code wins.
  const code = input.status >= 500 && input.status !== 504 ? 'server' : input.status === 429 ? 'rate_limited' : (byCode ?? codeFromStatus(input.status));
  const retryAfterMs = parseRetryAfter(input.retryAfterHeader) ?? facts.retryAfterMs;
  const quoted = facts.message ? safeText(facts.message, input.secrets) : '';
  let message = `${HEADLINES[code]} (HTTP ${input.status} from ${input.endpoint})`;
  if (quoted) message += `: ${quoted.replace(/\.$/, '')}`;
  if (code === 'insufficient_credits' && facts.required !== undefined && facts.available !== undefined) {
    message += ` (needs ${facts.required}, ${facts.available} available)`;
  }
  if (code === 'rate_limited' && retryAfterMs !== undefined) message += `; retry in ${Math.ceil(retryAfterMs / 1000)} s`;
  const field = facts.field ? safeText(facts.field, input.secrets) : undefined;
  return new ServiceError(code, redactSecrets(`${message}.`, input.secrets), {
    status: input.status,
    endpoint: input.endpoint,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(field ? { field } : {}),
    ...(code === 'insufficient_credits' ? { required: facts.required, available: facts.available } : {}),
  });
}

export { HEADLINES };

/**
 * `{success: false, error: …}` / `{ok: false, …}` inside a 2xx: some services report failures this way. Returns the
 * error the body describes, or undefined for an ordinary success body.
 */
export function failureInSuccessBody(input: { status: number; body: unknown; endpoint: string; secrets: readonly string[] }): ServiceError | undefined {
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const flag = pickValue(body as Record<string, unknown>, ['success', 'ok']);
  if (flag !== false && flag !== 'false') return undefined;
  const facts = readErrorBody(body);
  const byCode = facts.code ? CODE_PATTERNS.find(([pattern]) => pattern.test(facts.code!))?.[1] : undefined;
  const code = byCode ?? 'server';
  const quoted = facts.message ? `: ${safeText(facts.message, input.secrets).replace(/\.$/, '')}` : '';
  return new ServiceError(code, redactSecrets(`${HEADLINES[code]} (${input.endpoint} answered "success: false")${quoted}.`, input.secrets), {
    status: input.status,
    endpoint: input.endpoint,
    ...(facts.field ? { field: safeText(facts.field, input.secrets) } : {}),
    ...(facts.retryAfterMs !== undefined ? { retryAfterMs: facts.retryAfterMs } : {}),
    ...(code === 'insufficient_credits' ? { required: facts.required, available: facts.available } : {}),
  });
}
