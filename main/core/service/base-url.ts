import { AppError } from '../../../shared/errors';
import { isLoopbackHost } from '../secrets/key-transport';
import { InvalidServiceUrlError, normalizeServiceUrl } from '../secrets/service-url';
import { ServiceError } from './errors';

// One definition of loopback for the key's transport and the service client (it was two, and they differed).
export { isLoopbackHost };

/**
 * The canonical base URL (`https://host[/prefix]/api/v1`, no trailing slash) whether or not the caller wrote
 * `/api/v1` or a trailing slash. Refuses plain http to another machine unless explicitly allowed.
 */
export function resolveBaseUrl(input: string, allowInsecureHttp = false): string {
  let base: string;
  try {
    base = normalizeServiceUrl(input);
  } catch (error) {
    const message = error instanceof InvalidServiceUrlError ? error.message : 'Invalid service URL.';
    throw new AppError('bad_request', message);
  }
  const url = new URL(base);
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ServiceError(
      'unsupported',
      `Refusing to send the API key over plain http to ${url.host}: it would travel unencrypted. Use https, or allow insecure HTTP explicitly for this service.`,
    );
  }
  return base;
}
