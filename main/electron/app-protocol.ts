import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { APP_HOST, CONTENT_SECURITY_POLICY } from './constants';
import { contentTypeFor } from '../core/media/content-types';
import { resolveRendererFile } from '../core/media/inside-root';

export { resolveInside } from '../core/media/inside-root';

/** Headers on every renderer response: the CSP lives here, not in a <meta> tag the page could omit. */
export const APP_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...APP_RESPONSE_HEADERS } });
}

export function fileResponse(path: string, size: number, method: string, extraHeaders: Record<string, string>): Response {
  const headers = { 'Content-Type': contentTypeFor(path), 'Content-Length': String(size), ...extraHeaders };
  if (method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}

/**
 * The `batchroom://app/` handler: serves the built renderer (`dist/renderer/`) and nothing else. `/` is the index;
 * unknown paths, paths leaving the folder (also through symlinks) and source maps are 404 (no SPA fallback: the
 * renderer does not use path routing).
 */
export function createAppProtocolHandler(rendererRoot: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererRoot);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return plain(400, 'Bad request');
    }
    if (url.host !== APP_HOST) return plain(404, 'Not found');
    const path = await resolveRendererFile(root, url.pathname);
    if (!path) return plain(404, 'Not found');
    const info = await stat(path);
    return fileResponse(path, info.size, request.method, { ...APP_RESPONSE_HEADERS });
  };
}
