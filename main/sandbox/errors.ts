// Every error the sandbox answers is `{ "error": { "code", "message", ...extra } }` with a stable code, so clients
// (and docs/sandbox.md) can rely on the code rather than on the wording of the message.

export type SandboxErrorCode =
  | 'invalid_json'
  | 'invalid_body'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'insufficient_credits'
  | 'not_found'
  | 'workflow_not_found'
  | 'execution_not_found'
  | 'result_not_found'
  | 'method_not_allowed'
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'result_expired'
  | 'payload_too_large'
  | 'image_too_large'
  | 'unsupported_content_type'
  | 'unsupported_media_type'
  | 'corrupt_image'
  | 'validation_failed'
  | 'rate_limited'
  | 'concurrency_limit'
  | 'internal_error'
  | 'bad_gateway'
  | 'service_unavailable';

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: SandboxErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SandboxError';
  }

  body(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

/** 422 naming the offending field with a dotted path such as `images.photo` or `globalOverrides.aspectRatio`. */
export function validationError(field: string, message: string, extra: Record<string, unknown> = {}): SandboxError {
  return new SandboxError(422, 'validation_failed', message, { field, ...extra });
}

/** 429 with both the `Retry-After` header (whole seconds, as HTTP wants) and the same value in the body. */
export function tooManyRequests(code: 'rate_limited' | 'concurrency_limit', message: string, retryAfterSeconds: number): SandboxError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new SandboxError(429, code, message, { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
}
