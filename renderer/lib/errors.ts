import { ErrorEnvelopeSchema, type ErrorDetail, type ErrorEnvelope } from '../../shared/error-envelope';
import type { IpcResult } from '../../shared/ipc/contract-kit';
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

const PLAIN_WORDS: Record<string, string> = {
  unauthorized: 'The service did not accept the API key. Check it in Settings.',
  missing_key: 'There is no API key yet. Add one in Settings.',
  key_not_sent: 'The API key was not sent to this service address. Check the service address in Settings.',
  insufficient_credits: 'There are not enough credits for this. Top up your account or choose fewer photos.',
  budget_exceeded: 'This would go over the budget you set for the batch.',
  not_found: 'That could not be found any more. It may have been removed.',
  validation: 'The service did not accept these settings.',
  bad_request: 'Some of the values are not valid.',
  rate_limited: 'The service is busy. Batchroom will slow down and try again.',
  payload_too_large: 'A photo is too large for the service.',
  unsupported_media: 'That file type is not supported.',
  server: 'The service had a problem on its side. Try again in a moment.',
  network: 'The service could not be reached. Check your internet connection.',
  timeout: 'The service took too long to answer.',
  shape: 'The service answered in a way Batchroom did not understand.',
  unknown_outcome: 'We could not tell whether the service received this request.',
  keychain_unavailable: 'The system keychain is not available, so the API key cannot be stored safely.',
  unavailable: 'That is not available right now.',
  unsupported: 'This is not possible here.',
  conflict: 'That changed in the meantime. Refresh and try again.',
  cancelled: 'That was cancelled.',
  disconnected: 'Lost the connection to Batchroom. Reload the page.',
};

/** Codes whose message main writes for people already (which field, which feature): shown as it is. */
const MESSAGE_IS_PLAIN = new Set(['unavailable', 'unsupported', 'validation', 'bad_request', 'keychain_unavailable', 'missing_key', 'key_not_sent']);

const creditWords = (n: number): string => formatCredits(n);

/** The title the numbers allow: "This needs 39 credits; you have 36." beats "not enough credits". */
function titleFromDetail(code: string, detail: ErrorDetail | undefined): string | null {
  if (!detail) return null;
  const { required, available, budget } = detail;
  if (code === 'insufficient_credits' && required !== undefined && available !== undefined) {
    return `This needs ${creditWords(required)}; you have ${creditWords(Math.max(0, available))}. Top up your account or choose fewer photos.`;
  }
  if (code === 'budget_exceeded' && required !== undefined && budget !== undefined) {
    return `This costs ${creditWords(required)}, over the budget of ${creditWords(budget)} you set.`;
  }
  return null;
}

export function toUiError(code: string, message: string, extra: Omit<ErrorEnvelope, 'ok' | 'code' | 'message'> = {}): UiError {
  const title = titleFromDetail(code, extra.detail) ?? (MESSAGE_IS_PLAIN.has(code) && message ? message : PLAIN_WORDS[code]) ?? (message || 'Something went wrong.');
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
