import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { contract } from '../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../shared/ipc/dispatch';
import { serviceChannels } from '../../shared/ipc/channels/service';
import type { EventPayload, Handlers } from '../../shared/ipc/contract';
import type { Core, HostCapabilities, ServiceCore } from '../core/app/types';
import { silentLogger, type Logger } from '../core/log';
import { MEDIA_PREFIX, type MediaRegistry } from './media-registry';
import { createConnectionSlots } from './connection-slots';
import { checkRequest, createToken, sessionCookie } from './request-guard';
import { resolveRendererFile, stillRegisteredFile } from '../core/media/inside-root';
import { notBuiltPage, sendFile } from './static-files';
import { browserHostLimits, type BrowserHostLimits } from './limits';
import { createDropLedger } from './drop-budget';
import { createStagingBudget, stageUpload, UploadError } from './uploads';
import { DOWNLOAD_PREFIX, sendDownload } from './downloads';
import { AppError } from '../../shared/errors';
import { toErrorEnvelope } from '../../shared/error-envelope';
import { createStagedCleaner, refuseReviewCopies, requireOutputForStaged } from './staged-batches';
import { createReviewCopies } from './review-copy';
import { createWsChannel } from './ws-channel';
import { loadShellCache } from './shell-cache';

export const WS_PATH = '/ws';
export const UPLOAD_PATH = '/upload';

export interface BrowserHostOptions {
  /**
   * The core, or its start still under way: the page (HTML, scripts, styles) is served at once and IPC calls wait for
   * the core, so the browser loads the renderer while the core opens the journal and connects to the service.
   */
  core: Core | Promise<Core>;
  /**
   * The core's service channels (workflows, balance, service status) while the rest of it still starts
   * (CoreOptions.onServiceReady): calls on them are answered as soon as this settles, the others wait for `core`.
   */
  service?: Promise<ServiceCore>;
  /** Called once, after the first `workflows:list` answer was sent (the catalog the window opens with). */
  onCatalogAnswered?: () => void;
  media: MediaRegistry;
  /** The built renderer (`dist/renderer`). */
  rendererDir: string;
  /** Where files dropped in the browser are staged (inside the state dir). */
  uploadDir: string;
  /** 0 (default): a random free port. */
  port?: number;
  logger?: Logger;
  /** Tests pin the token; normal runs get a fresh random one. */
  token?: string;
  /** Resource limits (defaults in limits.ts, documented in docs/security.md). */
  limits?: Partial<BrowserHostLimits>;
}

export interface BrowserHost {
  /** `http://127.0.0.1:PORT/?token=…` — the one URL that opens the UI. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** The capabilities a browser lends the core: previews through the media route, no native pickers or drags. */
export function browserHostCapabilities(media: MediaRegistry): HostCapabilities {
  return { host: 'browser', platform: process.platform, previewUrlFor: (path) => media.urlFor(path) };
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The first URL carries the token: never hand it to another site in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};
const PAGE_CSP = "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

const TOO_MANY = 'Too many connections to the Batchroom browser host; try again shortly.\n';

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...headers });
  response.end(text);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...headers });
  response.end(JSON.stringify(body));
}

/**
 * Serves the renderer on loopback and bridges the IPC contract over a WebSocket, so the same UI runs in any browser
 * (and in Chromium under test). Every request and the upgrade must carry the token; see request-guard.ts.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const logger = options.logger ?? silentLogger;
  const token = options.token ?? createToken();
  const { media, rendererDir, uploadDir } = options;
  const coreReady = Promise.resolve(options.core);
  coreReady.catch(() => undefined); // the caller awaits its own promise and reports a failed start
  const dispatcher = coreReady.then((core) => createInvokeDispatcher(contract, core.handlers, {
    secrets: () => core.secrets(),
    onInternalError: (channel, message) => logger.error('handler failed', { channel, message }),
  }));
  // The same dispatcher (contract validation, redaction) over the service handlers alone; the other channels are never
  // routed to it. If the core fails before its service is up, these calls wait for (and share) the core's fate.
  const serviceDispatcher = options.service?.then((service) => createInvokeDispatcher(contract, service.handlers as Handlers, {
    secrets: () => service.secrets(),
    onInternalError: (channel, message) => logger.error('handler failed', { channel, message }),
  }), () => dispatcher);
  // Awaited only by calls: a core that never starts (it failed, or Ctrl-C came first) must not end the process as an
  // unhandled rejection before the caller reports it (or exits cleanly).
  dispatcher.catch(() => undefined);
  serviceDispatcher?.catch(() => undefined);
  const limits = browserHostLimits(options.limits);
  let catalogAnswered = options.onCatalogAnswered;
  const channel = createWsChannel(async (name, args) => {
    // Answered like any handler's refusal (code, message, field), before the core sees the spec.
    try {
      requireOutputForStaged(name, args, uploadDir);
      await refuseReviewCopies(name, args, uploadDir, async () => (await coreReady).handlers);
    } catch (error) {
      if (error instanceof AppError) return toErrorEnvelope(error);
      throw error;
    }
    const early = serviceDispatcher && Object.hasOwn(serviceChannels, name) ? serviceDispatcher : dispatcher;
    const result = await (await early)(name, args);
    if (name === 'workflows:list' && catalogAnswered) {
      // After this answer is on its way (the channel sends it when this resolves).
      setImmediate(catalogAnswered);
      catalogAnswered = undefined;
    }
    return result;
  }, logger, limits);
  const staging = createStagingBudget(limits);
  const drops = createDropLedger(limits);
  let closed = false;
  let unsubscribe = () => {};
  const startedAt = Date.now();
  void coreReady.then((core) => {
    if (closed) return;
    const staged = createStagedCleaner(core.handlers, uploadDir, {
      reviewCopy: createReviewCopies(join(dirname(uploadDir), 'previews')),
      freed: (files, bytes) => {
        staging.files = Math.max(0, staging.files - files);
        staging.bytes = Math.max(0, staging.bytes - bytes);
      },
      onError: (message) => logger.warn('staged uploads not removed', { message }),
    });
    unsubscribe = core.onEvent((event, payload) => {
      channel.broadcast(event, payload);
      if (event === 'batches:progress') staged.onBatches((payload as EventPayload<'batches:progress'>).batches);
    });
    void staged.sweep(startedAt).then((n) => n > 0 && logger.info('stale staged uploads removed', { folders: n }));
  }, () => undefined);
  let port = 0;
  const shell = loadShellCache(rendererDir);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const verdict = checkRequest(request, port, token);
    if (!verdict.ok) {
      // Closed with the answer: a token-less client trickling a body after its 401 must not keep its socket.
      response.once('finish', () => request.socket.destroy());
      sendText(response, verdict.status, `Refused: ${verdict.reason}. Open the URL printed by \`batchroom ui\`.\n`, { Connection: 'close' });
      return;
    }
    slots.authenticated(request.socket);
    const cookie: Record<string, string> = verdict.viaQuery ? { 'Set-Cookie': sessionCookie(port, token) } : {};
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';

    if (url.pathname === UPLOAD_PATH) {
      if (method !== 'POST') return sendText(response, 405, 'Use POST.\n', { Allow: 'POST' });
      try {
        const declared = { files: Number(url.searchParams.get('files') ?? 0) || 0, bytes: Number(url.searchParams.get('bytes') ?? 0) || 0 };
        const drop = drops.open(url.searchParams.get('drop'), declared);
        const path = await stageUpload(request, uploadDir, url.searchParams.get('name'), staging, drop);
        return sendJson(response, 200, { path }, cookie);
      } catch (error) {
        const status = error instanceof UploadError ? error.status : 500;
        return sendJson(response, status, { error: error instanceof Error ? error.message : 'upload failed' }, cookie);
      }
    }
    if (method !== 'GET' && method !== 'HEAD') return sendText(response, 405, 'Method not allowed.\n', { Allow: 'GET, HEAD' });

    if (url.pathname.startsWith(MEDIA_PREFIX)) {
      const id = url.pathname.slice(MEDIA_PREFIX.length).split('/')[0] ?? '';
      const registered = media.pathFor(id);
      const file = registered ? await stillRegisteredFile(registered) : null;
      const headers = { ...SECURITY_HEADERS, ...cookie, 'Content-Security-Policy': "default-src 'none'" };
      if (file && (await sendFile(response, file.path, headers, method))) return;
      return sendText(response, 404, 'Not found.\n', cookie);
    }

    if (url.pathname.startsWith(DOWNLOAD_PREFIX)) {
      const headers = { ...SECURITY_HEADERS, ...cookie, 'Content-Security-Policy': "default-src 'none'" };
      if (await sendDownload(response, url.pathname, (await coreReady).handlers, headers, method)) return;
      return sendText(response, 404, 'Not found.\n', cookie);
    }

    const pageHeaders = { ...SECURITY_HEADERS, ...cookie, 'Content-Security-Policy': PAGE_CSP };
    // The shell from memory, in this very turn of the event loop (shell-cache.ts says why and how it stays fresh).
    const cached = shell.fresh(url.pathname);
    if (cached) {
      response.writeHead(200, { 'Content-Type': cached.contentType, 'Content-Length': String(cached.body.length), ...pageHeaders });
      response.end(method === 'HEAD' ? undefined : cached.body);
      return;
    }
    // Inside the renderer folder on its real path (no traversal, no symlink out), never a source map.
    const file = await resolveRendererFile(rendererDir, url.pathname);
    if (url.pathname === '/favicon.ico' && !file) {
      response.writeHead(204, SECURITY_HEADERS);
      response.end();
      return;
    }
    if (file && (await sendFile(response, file, pageHeaders, method))) return;
    // Client-side routes (no extension) fall back to the app shell; a missing asset stays a 404.
    // The shell under the same rules as any file (a symlink out of the folder serves nothing).
    const index = join(rendererDir, 'index.html');
    if (!/\.[a-z0-9]+$/i.test(decodedPath(url.pathname))) {
      const shellFile = await resolveRendererFile(rendererDir, '/index.html');
      if (shellFile && (await sendFile(response, shellFile, pageHeaders, method))) return;
      if (!existsSync(index)) {
        response.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', ...pageHeaders });
        response.end(notBuiltPage(rendererDir));
        return;
      }
    }
    sendText(response, 404, 'Not found.\n', cookie);
  };

  const server = createServer({
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often the header and request timeouts are enforced (Node's default of 30 s would stretch a 10 s limit).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2))),
  }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error('browser host request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!response.headersSent) sendText(response, 500, 'Internal error.\n');
      else response.destroy();
    });
  });
  const slots = createConnectionSlots(limits);
  server.on('connection', (socket) => {
    if (!slots.admit(socket)) {
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\nRetry-After: 5\r\nContent-Length: ${TOO_MANY.length}\r\n\r\n${TOO_MANY}`);
      socket.destroySoon();
      return;
    }
    // Idle connections (no bytes either way, WebSocket pings included) are closed rather than held forever.
    socket.setTimeout(limits.idleTimeoutMs, () => socket.destroy());
  });
  server.on('upgrade', (request, socket, head) => {
    const verdict = checkRequest(request, port, token);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!verdict.ok || path !== WS_PATH) {
      const status = verdict.ok ? 404 : verdict.status;
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Refused'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
      return;
    }
    slots.authenticated(socket as Socket);
    channel.server.handleUpgrade(request, socket, head, (ws) => channel.server.emit('connection', ws, request));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      closed = true;
      unsubscribe();
      await channel.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
