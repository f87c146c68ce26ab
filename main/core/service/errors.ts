import { AppError, type ErrorCode } from '../../../shared/errors';

/** The subset of stable codes the service client produces. */
export type ServiceErrorCode = Extract<
  ErrorCode,
  | 'unauthorized'
  | 'insufficient_credits'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media'
  | 'server'
  | 'network'
  | 'timeout'
  | 'shape'
  | 'conflict'
  | 'cancelled'
  | 'unsupported'
>;

export interface ServiceErrorFacts {
  status?: number;
  retryAfterMs?: number;
  /** The request field the service (or the local validator) blamed, as a dotted path: `texts.style`. */
  field?: string;
  /** Credits the request needed and the account had (insufficient_credits), when the service said so. */
  required?: number;
  available?: number;
  /** `GET /workflows/{id}` style label of the call that failed. */
  endpoint?: string;
  /** Local validation problems (code 'validation' raised before sending). */
  problems?: { field: string; message: string }[];
  /** Wire keys seen where a concept was missing (code 'shape'). */
  keysSeen?: string[];
}

/**
 * Every failure of the service client. The message is plain language for people and has already been redacted
 * (no key, no image bytes); the facts are for programs (retry timing, which field to highlight).
 */
export class ServiceError extends AppError {
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly required?: number;
  readonly available?: number;
  readonly endpoint?: string;

  constructor(code: ServiceErrorCode, message: string, facts: ServiceErrorFacts = {}, options?: { cause?: unknown }) {
    const detail: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(facts)) if (value !== undefined) detail[name] = value;
    super(code, message, detail, options);
    this.name = 'ServiceError';
    this.status = facts.status;
    this.retryAfterMs = facts.retryAfterMs;
    this.required = facts.required;
    this.available = facts.available;
    this.endpoint = facts.endpoint;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

const MAX_KEYS_LISTED = 25;

/**
 * The answer could not be mapped onto Batchroom's model. Names the call, the missing concept and the keys that were
 * there, so a report from a user is enough to add the new spelling to the normalizer.
 */
export function shapeError(endpoint: string, concept: string, keysSeen: readonly string[], extra?: string): ServiceError {
  const listed = keysSeen.slice(0, MAX_KEYS_LISTED);
  const more = keysSeen.length > listed.length ? `, … ${keysSeen.length - listed.length} more` : '';
  const keys = keysSeen.length === 0 ? 'no keys' : `keys seen: ${listed.join(', ')}${more}`;
  return new ServiceError(
    'shape',
    `The service's answer to ${endpoint} could not be understood: ${concept} (${keys})${extra ? `; ${extra}` : ''}.`,
    { endpoint, keysSeen: listed },
  );
}
