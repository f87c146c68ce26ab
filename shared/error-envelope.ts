import { z } from 'zod';
import { AppError, ERROR_CODES } from './errors';

// The wire form of an AppError (IPC, the browser host's WebSocket). Apart from shared/errors.ts so that code which
// only raises or recognises errors — the CLI's start, `batchroom --help` — does not load zod to do it.

export const ErrorCodeSchema = z.enum(ERROR_CODES);

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
