import { AppError } from '../../../shared/errors';
import { InvalidServiceUrlError, normalizeServiceUrl } from '../secrets/service-url';
import { ServiceError } from './errors';

/** Hosts where plain http never leaves the machine, so the key does not travel in clear. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host) || host === '0:0:0:0:0:0:0:1';
}

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
