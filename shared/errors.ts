/**
 * Stable error codes shared by the service client, the engine, the IPC envelopes and the CLI. A code is for
 * programs (exit codes, retry decisions, UI icons); the message is for people and never carries a secret.
 */
export const ERROR_CODES = [
  'bad_request', // arguments failed validation at a boundary (IPC, CLI)
  'untrusted_sender',
  'unauthorized',
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

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra facts for people (field name, retry-after, required/available credits); never secrets. */
  readonly detail: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, detail: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (ERROR_CODES as readonly string[]).includes((error as { code: string }).code));
}
