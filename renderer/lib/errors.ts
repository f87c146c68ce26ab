import { ErrorEnvelopeSchema, type ErrorDetail, type ErrorEnvelope } from '../../shared/error-envelope';
import type { IpcResult } from '../../shared/ipc/contract-kit';
import type { KeyOf } from '../../shared/i18n';
import { tr } from '../i18n/active';
import { formatCredits } from './format';

/** An error as the UI shows it: a sentence a photographer understands, the technical detail one click away. */
export interface UiError {
  title: string;
  detail: string;
  code: string;
  /** The input to mark (dotted path, as main named it: `texts.style`, `output.outputFolder`, `ledgerUrl`). */
  field?: string;
  /** What to do about it, when main said. */
  hint?: string;
}

/** The catalog sentence (`lib` namespace, `error.<code>`) for each code the UI explains in its own words. */
const PLAIN_WORDS: Record<string, KeyOf<'lib'>> = {
  unauthorized: 'error.unauthorized',
  missing_key: 'error.missingKey',
  key_not_sent: 'error.keyNotSent',
  insufficient_credits: 'error.insufficientCredits',
  budget_exceeded: 'error.budgetExceeded',
  not_found: 'error.notFound',
  validation: 'error.validation',
  bad_request: 'error.badRequest',
  rate_limited: 'error.rateLimited',
  payload_too_large: 'error.payloadTooLarge',
  unsupported_media: 'error.unsupportedMedia',
  server: 'error.server',
  network: 'error.network',
  timeout: 'error.timeout',
  shape: 'error.shape',
  unknown_outcome: 'error.unknownOutcome',
  keychain_unavailable: 'error.keychainUnavailable',
  unavailable: 'error.unavailable',
  unsupported: 'error.unsupported',
  conflict: 'error.conflict',
  cancelled: 'error.cancelled',
  disconnected: 'error.disconnected',
};

/** Codes whose message main writes for people already (which field, which feature): shown as it is. */
const MESSAGE_IS_PLAIN = new Set(['unavailable', 'unsupported', 'validation', 'bad_request', 'keychain_unavailable', 'missing_key', 'key_not_sent']);

const creditWords = (n: number): string => formatCredits(n);

/** The title the numbers allow: "This needs 39 credits; you have 36." beats "not enough credits". */
function titleFromDetail(code: string, detail: ErrorDetail | undefined): string | null {
  if (!detail) return null;
  const { required, available, budget } = detail;
  if (code === 'insufficient_credits' && required !== undefined && available !== undefined) {
    return tr('lib', 'error.needsCredits', { required: creditWords(required), available: creditWords(Math.max(0, available)) });
  }
  if (code === 'budget_exceeded' && required !== undefined && budget !== undefined) {
    return tr('lib', 'error.overBudget', { required: creditWords(required), budget: creditWords(budget) });
  }
  return null;
}

export function toUiError(code: string, message: string, extra: Omit<ErrorEnvelope, 'ok' | 'code' | 'message'> = {}): UiError {
  const plain = PLAIN_WORDS[code];
  const title = titleFromDetail(code, extra.detail) ?? (MESSAGE_IS_PLAIN.has(code) && message ? message : plain && tr('lib', plain))
    ?? (message || tr('lib', 'error.generic'));
  const lines = [`${code}: ${message}`];
  if (extra.detail?.system) lines.push(extra.detail.system);
  const ui: UiError = { code, title, detail: lines.join('\n') };
  if (extra.field) ui.field = extra.field;
  if (extra.hint) ui.hint = extra.hint;
  return ui;
}

export class BridgeError extends Error {
  readonly ui: UiError;
  constructor(code: string, message: string, extra: Omit<ErrorEnvelope, 'ok' | 'code' | 'message'> = {}) {
    super(message);
    this.name = 'BridgeError';
    this.ui = toUiError(code, message, extra);
  }
}

/**
 * Unwraps an IPC envelope: the data, or a BridgeError carrying the plain-words form. The failure is schema-checked
 * (the browser host's WebSocket is just JSON): a malformed field, hint or detail is dropped, the message kept.
 */
export async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  let result: IpcResult<T>;
  try {
    result = await pending;
  } catch (error) {
    throw new BridgeError('disconnected', error instanceof Error ? error.message : String(error));
  }
  if (result.ok) return result.data;
  const checked = ErrorEnvelopeSchema.safeParse(result);
  if (!checked.success) throw new BridgeError(String(result.code), String(result.message));
  const { code, message, ...extra } = checked.data;
  throw new BridgeError(code, message, { field: extra.field, hint: extra.hint, detail: extra.detail });
}

export function asUiError(error: unknown): UiError {
  if (error instanceof BridgeError) return error.ui;
  return toUiError('internal', error instanceof Error ? error.message : String(error));
}
