import type { IpcResult } from '../../shared/ipc/contract-kit';

/** An error as the UI shows it: a sentence a photographer understands, the technical detail one click away. */
export interface UiError {
  title: string;
  detail: string;
  code: string;
}

const PLAIN_WORDS: Record<string, string> = {
  unauthorized: 'The service did not accept the API key. Check it in Settings.',
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
const MESSAGE_IS_PLAIN = new Set(['unavailable', 'unsupported', 'validation', 'bad_request', 'keychain_unavailable']);

export function toUiError(code: string, message: string): UiError {
  const title = (MESSAGE_IS_PLAIN.has(code) && message ? message : PLAIN_WORDS[code]) ?? (message || 'Something went wrong.');
  return { code, title, detail: `${code}: ${message}` };
}

export class BridgeError extends Error {
  readonly ui: UiError;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'BridgeError';
    this.ui = toUiError(code, message);
  }
}

/** Unwraps an IPC envelope: the data, or a BridgeError carrying the plain-words form. */
export async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  let result: IpcResult<T>;
  try {
    result = await pending;
  } catch (error) {
    throw new BridgeError('disconnected', error instanceof Error ? error.message : String(error));
  }
  if (!result.ok) throw new BridgeError(result.code, result.message);
  return result.data;
}

export function asUiError(error: unknown): UiError {
  if (error instanceof BridgeError) return error.ui;
  return toUiError('internal', error instanceof Error ? error.message : String(error));
}
