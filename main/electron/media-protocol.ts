import { MEDIA_HOST, MEDIA_SCHEME } from './constants';
import { fileResponse } from './app-protocol';
import { stillRegisteredFile } from '../core/media/inside-root';
import { createMediaRegistry, type MediaRegistry } from '../core/media/registry';

export type { MediaRegistry };

/** The Electron media protocol: `batchroom-media://file/<token>`, serving only files the core registered. */
export function createElectronMediaRegistry(newToken?: () => string): MediaRegistry {
  return createMediaRegistry({ formatUrl: (token) => `${MEDIA_SCHEME}://${MEDIA_HOST}/${token}`, ...(newToken ? { newToken } : {}) });
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
    const file = await stillRegisteredFile(path);
    if (!file) return notFound();
    return fileResponse(file.path, file.size, request.method, { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  };
}
