import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh 256-bit token per `batchroom ui` run: the only way in. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Cookies are not port-scoped, so the name carries the port: two hosts on one machine never overwrite each other. */
export function cookieName(port: number): string {
  return `batchroom_token_${port}`;
}

export function sameToken(candidate: string | null | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return null;
}

export type GuardVerdict =
  | { ok: true; viaQuery: boolean }
  | { ok: false; status: 400 | 401 | 403; reason: string };

/**
 * Every request and WebSocket upgrade passes here. Host must name our loopback address (defeats DNS rebinding: a
 * foreign site resolving its own name to 127.0.0.1 still sends its own Host), Origin when present must be ours
 * (browsers always send it on WebSockets and cross-origin POSTs, so another tab cannot drive the host), and the
 * token must come with the request, in the query (first visit) or the cookie set by that visit.
 */
export function checkRequest(request: IncomingMessage, port: number, token: string): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = request.headers.host ?? '';
  if (!allowedHosts.includes(host.toLowerCase())) return { ok: false, status: 403, reason: 'unexpected Host header' };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { ok: false, status: 403, reason: 'foreign origin' };
  }
  let queryToken: string | null;
  try {
    queryToken = new URL(request.url ?? '/', 'http://placeholder').searchParams.get('token');
  } catch {
    return { ok: false, status: 400, reason: 'malformed URL' };
  }
  if (sameToken(queryToken, token)) return { ok: true, viaQuery: true };
  if (sameToken(cookieValue(request.headers.cookie, cookieName(port)), token)) return { ok: true, viaQuery: false };
  return { ok: false, status: 401, reason: 'missing or wrong token' };
}

export function sessionCookie(port: number, token: string): string {
  return `${cookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
