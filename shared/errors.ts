/**
 * Stable error codes shared by the service client, the engine, the IPC envelopes and the CLI. A code is for
 * programs (exit codes, retry decisions, UI icons); the message is for people and never carries a secret.
 */
export const ERROR_CODES = [
  'bad_request', // arguments failed validation at a boundary (IPC, CLI)
  'untrusted_sender',
  'unauthorized', // the service refused the key it was given
  'missing_key', // there is no key to give: none stored, none in the environment or on the command line
  'key_not_sent', // a key exists but must not travel there (plain http to another host, a new origin not yet confirmed)
  'insufficient_credits',
  'budget_exceeded',
  'not_found',
  'validation',
  'rate_limited',
  'payload_too_large',
  'unsupported_media',
  'server',
  'network',
  'timeout',
  'shape',
  'unknown_outcome',
  'keychain_unavailable',
  'unavailable',
  'unsupported',
  'conflict',
  'cancelled',
  'forbidden_path', // a path the core never vouched for (not an input, result or output folder), or one that would execute
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes that mean "no usable key": the core falls back to the sandbox or a refusing client instead of failing. */
export const CREDENTIAL_CODES: ReadonlySet<ErrorCode> = new Set(['missing_key', 'key_not_sent', 'keychain_unavailable']);

export interface AppErrorFacts extends Record<string, unknown> {
  field?: string;
  hint?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly hint?: string;
  /** Extra facts for programs and people (retry-after, required/available credits, a path); never secrets. */
  readonly detail: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, facts: AppErrorFacts = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    const { field, hint, ...detail } = facts;
    if (typeof field === 'string' && field) this.field = field;
    if (typeof hint === 'string' && hint) this.hint = hint;
    this.detail = detail;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (ERROR_CODES as readonly string[]).includes((error as { code: string }).code));
}
