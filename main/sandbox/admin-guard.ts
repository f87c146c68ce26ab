import type { IncomingMessage } from 'node:http';
import { SandboxError } from './errors';

// The admin routes change what every client of the sandbox sees (faults, an outage, a balance). A web page in the
// user's browser can reach a loopback port; what keeps it out is (1) a foreign Origin is refused outright, (2) the
// key travels only in an Authorization header and the body must be application/json — neither can be sent
// cross-origin without a CORS preflight, which the sandbox never grants.

/** Origins allowed to drive the admin routes: none (a non-browser client), the sandbox's own, or loopback on its port. */
export function isAllowedAdminOrigin(origin: string | undefined, ownOrigin: string): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes "null" (sandboxed frames, file: pages)
  }
  const own = new URL(ownOrigin);
  if (parsed.origin === own.origin) return true;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname.toLowerCase());
  return loopback && parsed.protocol === 'http:' && parsed.port === own.port;
}

/** Refuses an admin request from another site's page (403 forbidden_origin). */
export function checkAdminOrigin(req: IncomingMessage, ownOrigin: string): void {
  const origin = req.headers.origin;
  if (isAllowedAdminOrigin(origin, ownOrigin)) return;
  req.resume();
  throw new SandboxError(403, 'forbidden_origin', `requests from the page ${String(origin).slice(0, 100)} may not change the sandbox`);
}

/** Refuses a body that is not declared application/json (415) before reading it: a plain form post is not one. */
export function requireJsonContentType(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return;
  req.resume();
  throw new SandboxError(415, 'unsupported_content_type', `send the body as application/json${type ? `, not ${type.slice(0, 100)}` : ''}`);
}
