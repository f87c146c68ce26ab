import { z } from 'zod';

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
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** Codes that mean "no usable key": the core falls back to the sandbox or a refusing client instead of failing. */
export const CREDENTIAL_CODES: ReadonlySet<ErrorCode> = new Set(['missing_key', 'key_not_sent', 'keychain_unavailable']);

/**
 * The facts an error may carry across a process boundary (IPC, the browser host's WebSocket). A whitelist: anything
 * else an error holds (a cause, a stack, a request body) stays in the process that raised it.
 */
export const ErrorDetailSchema = z.object({
  /** Credits the action needs and the account has (insufficient_credits), or the batch budget (budget_exceeded). */
  required: z.number().finite().nonnegative().optional(),
  available: z.number().finite().optional(),
  budget: z.number().finite().nonnegative().optional(),
  retryAfterMs: z.number().finite().nonnegative().optional(),
  status: z.number().int().min(100).max(599).optional(),
  /** The file or folder concerned, when the message names one by its base name only. */
  path: z.string().max(4096).optional(),
  /** Every field the local validator refused (the first one is also `field`). */
  problems: z.array(z.object({ field: z.string().max(200), message: z.string().max(500) })).max(50).optional(),
  /** The underlying system's own words (a keychain's D-Bus error), redacted: for "Details" and --debug, not the message. */
  system: z.string().max(2000).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

/** The failure half of every IPC envelope. */
export const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  code: z.string().max(64),
  message: z.string(),
  /** The input to highlight, as a dotted path: `texts.style`, `output.outputFolder`, `ledgerUrl`. */
  field: z.string().max(200).optional(),
  /** What the person can do about it, one sentence. */
  hint: z.string().max(1000).optional(),
  detail: ErrorDetailSchema.optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

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

/** The whitelisted part of an error's detail, key by key (one bad value drops that value, not the rest), scrubbed. */
export function wireDetail(detail: Readonly<Record<string, unknown>>, scrub: (text: string) => string = (t) => t): ErrorDetail | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ErrorDetailSchema.shape)) {
    if (detail[key] === undefined) continue;
    const parsed = (schema as z.ZodType).safeParse(detail[key]);
    if (!parsed.success) continue;
    out[key] = scrubStrings(parsed.data, scrub);
  }
  return Object.keys(out).length > 0 ? (out as ErrorDetail) : undefined;
}

function scrubStrings(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubStrings(v, scrub));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubStrings(v, scrub)]));
  return value;
}

/** An AppError as it crosses a process boundary: code, message, field, hint and the whitelisted detail, scrubbed. */
export function toErrorEnvelope(error: AppError, scrub: (text: string) => string = (t) => t): ErrorEnvelope {
  const envelope: ErrorEnvelope = { ok: false, code: error.code, message: scrub(error.message) };
  if (error.field) envelope.field = error.field.slice(0, 200);
  if (error.hint) envelope.hint = scrub(error.hint).slice(0, 1000);
  const detail = wireDetail(error.detail, scrub);
  if (detail) envelope.detail = detail;
  return envelope;
}

/** The receiving side: an envelope back into an AppError (unknown codes become 'internal', the text kept). */
export function fromErrorEnvelope(envelope: ErrorEnvelope): AppError {
  const known = ErrorCodeSchema.safeParse(envelope.code);
  return new AppError(known.success ? known.data : 'internal', envelope.message, { field: envelope.field, hint: envelope.hint, ...envelope.detail });
}
