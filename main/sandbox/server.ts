import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { executeWorkflow, getBalance, getExecution, getWorkflow, listWorkflows, type ApiHandler } from './api-handlers';
import type { SandboxCore } from './core';
import { checkAdminOrigin, requireJsonContentType } from './admin-guard';
import { SandboxError, tooManyRequests } from './errors';
import { errorReply, readJsonBody, sendJson, type JsonReply } from './http-io';
import { isAllowedHostHeader } from './url-guard';

// Request pipeline. API routes: latency → drop-before → injected 5xx → injected 429 → auth → rate limit → handler →
// drop-after → (possibly malformed) response. Result downloads: latency → drop-before → 5xx → file (maybe slow).
// Admin routes (/sandbox/*) see no faults and refuse a foreign Origin; those that change faults, credits or
// availability need a key and a JSON body (admin-guard.ts). POST /sandbox/outage refuses connections for a while (outage.ts). Every fault decision is drawn from the seeded injector.

type RouteKind = 'api' | 'result' | 'admin';
interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  name: string;
  kind: RouteKind;
  api?: ApiHandler;
}

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/workflows$/, name: 'GET /api/v1/workflows', kind: 'api', api: listWorkflows },
  { method: 'GET', pattern: /^\/api\/v1\/workflows\/([^/]+)$/, name: 'GET /api/v1/workflows/:id', kind: 'api', api: getWorkflow },
  { method: 'POST', pattern: /^\/api\/v1\/workflows\/([^/]+)\/execute$/, name: 'POST /api/v1/workflows/:id/execute', kind: 'api', api: executeWorkflow },
  { method: 'GET', pattern: /^\/api\/v1\/executions\/([^/]+)$/, name: 'GET /api/v1/executions/:id', kind: 'api', api: getExecution },
  { method: 'GET', pattern: /^\/api\/v1\/balance$/, name: 'GET /api/v1/balance', kind: 'api', api: getBalance },
  { method: 'GET', pattern: /^\/results\/([0-9a-f]+)\/([^/]+)$/, name: 'GET /results/:token/:file', kind: 'result' },
  { method: 'GET', pattern: /^\/sandbox\/stats$/, name: 'GET /sandbox/stats', kind: 'admin' },
  { method: 'POST', pattern: /^\/sandbox\/stats\/reset-event-loop$/, name: 'POST /sandbox/stats/reset-event-loop', kind: 'admin' },
  { method: 'GET', pattern: /^\/sandbox\/faults$/, name: 'GET /sandbox/faults', kind: 'admin' },
  { method: 'POST', pattern: /^\/sandbox\/faults$/, name: 'POST /sandbox/faults', kind: 'admin' },
  { method: 'POST', pattern: /^\/sandbox\/credits$/, name: 'POST /sandbox/credits', kind: 'admin' },
  { method: 'POST', pattern: /^\/sandbox\/outage$/, name: 'POST /sandbox/outage', kind: 'admin' },
];

const KEY_FORMAT = /^sk_test_[A-Za-z0-9_-]{8,}$/;

/** The key from `Authorization: Bearer sk_test_…`, or 401. The key itself never appears in a message. */
export function authenticate(req: IncomingMessage): string {
  const header = req.headers.authorization;
  const challenge = { 'WWW-Authenticate': 'Bearer realm="batchroom-sandbox"' };
  if (!header) throw new SandboxError(401, 'missing_api_key', 'send the header "Authorization: Bearer <API key>"', {}, challenge);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new SandboxError(401, 'invalid_api_key', 'the Authorization header must have the form "Bearer <API key>"', {}, challenge);
  if (!KEY_FORMAT.test(match[1]!)) {
    throw new SandboxError(401, 'invalid_api_key', 'the sandbox accepts only test keys (sk_test_ followed by at least 8 characters)', {}, challenge);
  }
  return match[1]!;
}

export function createRequestHandler(core: SandboxCore): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.on('finish', () => core.stats.response(res.statusCode));
    core.outage?.track(res);
    handle(core, req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const known = error instanceof SandboxError ? error : new SandboxError(500, 'internal_error', `unexpected sandbox error: ${(error as Error)?.message ?? error}`);
      sendJson(res, errorReply(known));
    });
  };
}

function decodeParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError(404, 'not_found', 'malformed percent-encoding in the path');
  }
}

function drop(core: SandboxCore, res: ServerResponse, kind: 'dropBefore' | 'dropAfter'): void {
  core.stats.fault(kind);
  res.socket?.destroy();
}

async function handle(core: SandboxCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!isAllowedHostHeader(req.headers.host, core.settings.origin)) {
    req.resume();
    throw new SandboxError(403, 'forbidden_host', `unexpected Host header "${String(req.headers.host ?? '').slice(0, 100)}"; use the sandbox's own address`);
  }
  // Split by hand: `new URL(req.url, base)` would read a path such as `//host/x` as another host.
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const candidates = ROUTES.filter((route) => route.pattern.test(path));
  if (candidates.length === 0) throw new SandboxError(404, 'not_found', `no route for ${req.method} ${path}`);
  const route = candidates.find((candidate) => candidate.method === req.method);
  if (!route) {
    throw new SandboxError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}`, {}, {
      Allow: candidates.map((candidate) => candidate.method).join(', '),
    });
  }
  const params = (route.pattern.exec(path) ?? []).slice(1).map(decodeParam);
  core.stats.request(route.name);
  if (route.kind === 'admin') {
    checkAdminOrigin(req, core.settings.origin);
    const reply = await admin(core, route.name, req);
    // An outage starts once its own answer has been sent.
    if (reply.afterSend) res.once('finish', reply.afterSend);
    return sendJson(res, reply);
  }

  const faults = core.faults;
  const latency = faults.latencyFor(route.name);
  if (latency > 0) await sleep(latency, undefined, { ref: false });
  if (faults.roll('dropBefore', route.name, faults.current.dropBeforeRate)) return drop(core, res, 'dropBefore');
  if (faults.roll('serverError', route.name, faults.current.serverErrorRate)) {
    core.stats.fault('serverError');
    const status = faults.serverErrorStatus(route.name);
    const code = status === 500 ? 'internal_error' : status === 502 ? 'bad_gateway' : 'service_unavailable';
    const headers: Record<string, string> = status === 503 ? { 'Retry-After': '1' } : {};
    req.resume();
    return sendJson(res, errorReply(new SandboxError(status, code, `injected ${status} (sandbox fault settings)`, {}, headers)));
  }
  if (route.kind === 'result') return serveResult(core, res, params[0]!, params[1]!, route.name);

  if (faults.roll('rateLimit', route.name, faults.current.rateLimitRate)) {
    core.stats.fault('rateLimit');
    req.resume();
    throw tooManyRequests('rate_limited', 'rate limit exceeded (injected by the sandbox fault settings)', 1);
  }
  const key = authenticate(req);
  core.accounts.takeRequestToken(key);
  let reply: JsonReply;
  try {
    reply = await route.api!(core, { req, query, key, params });
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    reply = errorReply(error);
  }
  if (faults.roll('dropAfter', route.name, faults.current.dropAfterRate)) return drop(core, res, 'dropAfter');
  const malformed = reply.status < 300 && faults.roll('malformedJson', route.name, faults.current.malformedJsonRate);
  if (malformed) core.stats.fault('malformedJson');
  sendJson(res, reply, malformed);
}

async function serveResult(core: SandboxCore, res: ServerResponse, token: string, file: string, routeName: string): Promise<void> {
  const found = core.results.lookup(token, file);
  if (found.state === 'expired') throw new SandboxError(410, 'result_expired', 'this result URL has expired: results are kept for a limited time after the execution completes');
  if (found.state === 'unknown') throw new SandboxError(404, 'result_not_found', 'no result at this URL');
  core.stats.download();
  const { data, mime } = found.file;
  res.writeHead(200, { 'content-type': mime, 'content-length': String(data.length), 'cache-control': 'private, max-age=60' });
  const faults = core.faults;
  if (!faults.roll('slowDownload', routeName, faults.current.slowDownloadRate)) {
    res.end(data);
    return;
  }
  core.stats.fault('slowDownload');
  // Throttled in 100 ms slices; stops as soon as the client goes away.
  const slice = Math.max(1, Math.floor(faults.current.slowDownloadBytesPerSecond / 10));
  for (let offset = 0; offset < data.length && !res.destroyed; offset += slice) {
    res.write(data.subarray(offset, offset + slice));
    await sleep(100, undefined, { ref: false });
  }
  res.end();
}

const MAX_OUTAGE_MS = 10 * 60_000;

async function admin(core: SandboxCore, name: string, req: IncomingMessage): Promise<JsonReply & { afterSend?: () => void }> {
  switch (name) {
    case 'GET /sandbox/stats':
      return { status: 200, body: core.stats.snapshot() };
    case 'POST /sandbox/stats/reset-event-loop':
      core.stats.resetEventLoop();
      return { status: 200, body: { ok: true } };
    case 'GET /sandbox/faults':
      authenticate(req);
      return { status: 200, body: { seed: core.settings.seed, faults: core.faults.current } };
    case 'POST /sandbox/faults': {
      authenticate(req);
      requireJsonContentType(req);
      const body = await readJsonBody(req, 64 * 1024);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SandboxError(400, 'invalid_body', 'send a JSON object of fault settings');
      try {
        return { status: 200, body: { seed: core.settings.seed, faults: core.setFaults(body as Record<string, number>) } };
      } catch (error) {
        throw new SandboxError(422, 'validation_failed', (error as Error).message, { field: 'faults' });
      }
    }
    case 'POST /sandbox/credits': {
      const key = authenticate(req);
      requireJsonContentType(req);
      const body = (await readJsonBody(req, 64 * 1024)) as { credits?: unknown } | null;
      const credits = body?.credits;
      if (typeof credits !== 'number' || !Number.isFinite(credits) || credits < 0) {
        throw new SandboxError(422, 'validation_failed', 'credits must be a finite number ≥ 0', { field: 'credits' });
      }
      core.accounts.setCredits(key, credits);
      return { status: 200, body: { apiCredits: credits } };
    }
    case 'POST /sandbox/outage': {
      authenticate(req);
      requireJsonContentType(req);
      const body = (await readJsonBody(req, 64 * 1024)) as { ms?: unknown } | null;
      const ms = body?.ms;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0 || ms > MAX_OUTAGE_MS) {
        throw new SandboxError(422, 'validation_failed', `ms must be a whole number of milliseconds between 1 and ${MAX_OUTAGE_MS}`, { field: 'ms' });
      }
      const outage = core.outage;
      if (!outage) throw new SandboxError(500, 'internal_error', 'this sandbox cannot simulate outages');
      return { status: 200, body: { outageMs: ms }, afterSend: () => outage.begin(ms) };
    }
    default:
      throw new SandboxError(404, 'not_found', `no admin route ${name}`);
  }
}
