import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MEDIA_HOST, MEDIA_SCHEME } from './constants';
import { fileResponse } from './app-protocol';

/**
 * Previews and results reach the renderer only through tokens: the core registers a path it vouches for (an input
 * the user chose, a result it saved) and hands out `batchroom-media://file/<token>`. The renderer cannot name a
 * path, so it cannot read anything the core did not register.
 */
export interface MediaRegistry {
  urlFor(path: string): string;
  pathFor(token: string): string | undefined;
  readonly size: number;
}

export function createMediaRegistry(newToken: () => string = () => randomBytes(16).toString('hex')): MediaRegistry {
  const tokenByPath = new Map<string, string>();
  const pathByToken = new Map<string, string>();
  return {
    urlFor(path) {
      const absolute = resolve(path);
      let token = tokenByPath.get(absolute);
      if (!token) {
        token = newToken();
        tokenByPath.set(absolute, token);
        pathByToken.set(token, absolute);
      }
      return `${MEDIA_SCHEME}://${MEDIA_HOST}/${token}`;
    },
    pathFor: (token) => pathByToken.get(token),
    get size() {
      return pathByToken.size;
    },
  };
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

export function createMediaProtocolHandler(registry: MediaRegistry): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    const token = url.pathname.replace(/^\/+/, '');
    if (url.host !== MEDIA_HOST || !/^[A-Za-z0-9_-]{8,}$/.test(token)) return notFound();
    const path = registry.pathFor(token);
    if (!path) return notFound();
    try {
      const info = await stat(path);
      if (!info.isFile()) return notFound();
      return fileResponse(path, info.size, request.method, { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    } catch {
      return notFound();
    }
  };
}
