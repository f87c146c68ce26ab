import { AppError } from '../../../shared/errors';
import { redactSecrets } from '../../../shared/redact';

/** The API version prefix every service URL carries (spec: "Versioning"). */
export const API_PREFIX = '/api/v1';

/** A typed refusal (`bad_request`), so IPC answers it as bad input and never as an internal failure. */
export class InvalidServiceUrlError extends AppError {
  override readonly name = 'InvalidServiceUrlError';
  readonly input: string;
  constructor(input: string, reason: string) {
    // A key pasted into the URL field must not come back in the error.
    const shown = redactSecrets(input);
    super('bad_request', `Invalid service URL "${shown}": ${reason}. Expected something like https://host/api/v1.`, { field: 'serviceUrl' });
    this.input = shown;
  }
}

/**
 * One canonical spelling per service, because the URL is the keychain account name: `HTTPS://API.Example.com/`
 * and `https://api.example.com/api/v1/` must find the same key. Lowercase scheme and host (URL does that),
 * no query/fragment, no trailing slash, and always ending in `/api/v1` (appended when missing).
 */
export function normalizeServiceUrl(input: string): string {
  const trimmed = input.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InvalidServiceUrlError(trimmed, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidServiceUrlError(trimmed, `unsupported scheme ${url.protocol}`);
  }
  if (url.username || url.password) {
    // Credentials in the URL would end up as a keychain account name and in logs.
    throw new InvalidServiceUrlError(url.host, 'credentials in the URL are not allowed');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.toLowerCase().endsWith(API_PREFIX)) path = `${path}${API_PREFIX}`;
  return `${url.protocol}//${url.host}${path}`;
}

/** Like {@link normalizeServiceUrl} but returns null instead of throwing (for status displays). */
export function tryNormalizeServiceUrl(input: string): string | null {
  try {
    return normalizeServiceUrl(input);
  } catch {
    return null;
  }
}
