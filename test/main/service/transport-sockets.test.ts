import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_MAX_BYTES, createNodeTransport, WireFailure } from '../../../main/core/service/node-transport';
import { REQUEST, TEST_KEY, WORKFLOW, rejection, testClient } from './fixtures';

// The production transport against real sockets: for each way a request can fail, whether the client may send it
// again (provably never left) or must report an execute as "unknown" (it may have been charged).

const BALANCE = { apiCredits: 10, webCredits: { total: 0, breakdown: [] } };
const servers: Server[] = [];

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  socket: Socket;
  body: string;
}

/** A server recording every request (after reading its whole body) and the connections it accepted. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, seen: Seen[]) => void) {
  const seen: Seen[] = [];
  const sockets: Socket[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, socket: req.socket, body });
    handle(req, res, seen);
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, sockets, executes: () => seen.filter((s) => s.method === 'POST').length };
}

const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const accepted = (res: ServerResponse) => answer(res, 202, { executionId: 'ex_1', status: 'queued' });

/** Rejects when `promise` is still pending after `ms` (a hang fails the test with a reason, not a test timeout). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Resolves once the server's side of a connection has closed; rejects when it is still open after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return within(new Promise<void>((resolve) => socket.once('close', () => resolve())), ms);
}

/** Streams 16 KB every 5 ms until the client goes away; counts what it managed to write. */
function endlessBody(res: ServerResponse) {
  const state = { bytes: 0 };
  const tick = setInterval(() => {
    if (res.destroyed) return clearInterval(tick);
    res.write(Buffer.alloc(16_384, 0x61));
    state.bytes += 16_384;
  }, 5);
  res.once('close', () => clearInterval(tick));
  return state;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('the node transport on real sockets', () => {
  it('a port nobody listens on: never sent (ECONNREFUSED while connecting), so an execute is tried again', async () => {
    const { origin } = await serve(() => undefined);
    servers[0]!.closeAllConnections();
    await new Promise((resolve) => servers.shift()!.close(resolve));
    const failure = await createNodeTransport()({ method: 'POST', url: new URL(`${origin}/x`), headers: {}, body: '{}', signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WireFailure);
    expect([(failure as WireFailure).code, (failure as WireFailure).stage, (failure as WireFailure).notSent]).toEqual(['ECONNREFUSED', 'connecting', true]);
    const c = testClient(origin);
    const error = await rejection(c.execute(WORKFLOW, REQUEST));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/connection refused/);
    expect(c.delays).toHaveLength(2);
  });

  it('a host that does not resolve: never sent, tried again', async () => {
    const c = testClient('http://batchroom-test.invalid', { allowInsecureHttp: true, timeoutMs: 10_000 });
    const error = await rejection(c.getBalance());
    expect(error.message).toMatch(/cannot resolve|EAI_|for batchroom-test\.invalid/);
    expect(c.delays).toHaveLength(2);
  });

  it.each(['close', 'reset'])('a server that reads the whole body and then %ss the connection: "unknown", executed once', async (how) => {
    const server = await serve((req) => (how === 'reset' ? req.socket.resetAndDestroy() : req.socket.destroy()));
    const outcome = await testClient(server.origin).execute(WORKFLOW, REQUEST);
    expect(outcome.kind).toBe('unknown');
    expect(server.executes()).toBe(1);
    expect(JSON.parse(server.seen[0]!.body)).toEqual(REQUEST);
  });

  it('a server that never answers: an execute times out as "unknown" (sent once), a read as timeout after retries', async () => {
    const server = await serve(() => undefined);
    expect((await testClient(server.origin, { executeTimeoutMs: 300 }).execute(WORKFLOW, REQUEST)).kind).toBe('unknown');
    expect(server.executes()).toBe(1);
    const error = await rejection(testClient(server.origin, { timeoutMs: 300 }).getBalance());
    expect(error.code).toBe('timeout');
    expect(server.seen.filter((s) => s.method === 'GET')).toHaveLength(3);
  });

  it('a kept-alive connection the server closed while idle: the next request goes on a new connection', async () => {
    const server = await serve((req, res, seen) => {
      if (seen.length > 1) return accepted(res);
      answer(res, 200, BALANCE);
      res.once('finish', () => setTimeout(() => req.socket.destroy(), 20));
    });
    const c = testClient(server.origin);
    await c.getBalance();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await c.execute(WORKFLOW, REQUEST)).toEqual({ kind: 'accepted', executionId: 'ex_1' });
    expect(server.sockets).toHaveLength(2);
    expect(server.executes()).toBe(1);
  });

  it('a kept-alive connection the server closes as the next request arrives: an execute is "unknown", a read is retried', async () => {
    // The classic ECONNRESET on a reused socket: the request was written, and a server may close after reading it.
    const server = await serve((req, res, seen) => {
      const previous = seen[seen.length - 2];
      if (previous && previous.socket === req.socket) return void req.socket.destroy();
      if (req.method === 'POST') return accepted(res);
      answer(res, 200, BALANCE);
    });
    const c = testClient(server.origin);
    await c.getBalance();
    expect((await c.execute(WORKFLOW, REQUEST)).kind).toBe('unknown');
    expect(server.executes()).toBe(1);
    expect(server.seen[1]!.socket).toBe(server.seen[0]!.socket);
    await c.getBalance();
    const before = server.seen.length;
    expect((await c.getBalance()).apiCredits).toBe(10);
    expect(server.seen.length - before).toBe(2);
    expect(c.delays.length).toBeGreaterThan(0);
  });

  it('a redirect of a read to another origin does not carry the key there', async () => {
    const other = await serve((_req, res) => answer(res, 200, BALANCE));
    const service = await serve((_req, res) => {
      res.writeHead(302, { Location: `${other.origin.replace('127.0.0.1', 'localhost')}/moved/balance` });
      res.end();
    });
    expect((await testClient(service.origin).getBalance()).apiCredits).toBe(10);
    expect(service.seen[0]!.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(other.seen.map((s) => [s.url, s.authorization])).toEqual([['/moved/balance', undefined]]);
  });

  it('a download that breaks off fails as network, and one the caller aborts fails as cancelled (never as complete)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': '1000' });
      res.write('partial');
      if (server.seen.length === 1) setTimeout(() => res.socket?.destroy(), 30);
    });
    const broken = await testClient(server.origin).downloadResult(`${server.origin}/r.png`);
    expect((await rejection(broken.arrayBuffer())).code).toBe('network');
    const controller = new AbortController();
    const aborted = await testClient(server.origin).downloadResult(`${server.origin}/r.png`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect((await rejection(aborted.arrayBuffer())).code).toBe('cancelled');
  });
  it('a download whose error answer stalls mid-body fails within the timeout and closes the connection (no hang)', async () => {
    // undici's 300 s body timeout used to cover this; the error body is now read under the download's own timeout.
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"error":');
    });
    const c = testClient(server.origin, { timeoutMs: 300, retry: { attempts: 1 } });
    const started = Date.now();
    const error = await rejection(within(c.downloadResult(`${server.origin}/r.png`), 3_000));
    expect([error.code, error.status]).toEqual(['server', 500]);
    expect(error.message).not.toMatch(/\{"error"/);
    expect(Date.now() - started).toBeLessThan(1_500);
    await closedWithin(server.sockets[0]!, 500);
  });

  it('a download whose error answer never ends is read up to a cap, then the connection is closed', async () => {
    let sent = { bytes: 0 };
    const server = await serve((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/plain' });
      sent = endlessBody(res);
    });
    const c = testClient(server.origin, { timeoutMs: 10_000, retry: { attempts: 1 } });
    const error = await rejection(within(c.downloadResult(`${server.origin}/r.png`), 3_000));
    expect([error.code, error.status]).toEqual(['server', 503]);
    await closedWithin(server.sockets[0]!, 500);
    expect(sent.bytes).toBeLessThan(4_000_000);
  });

  it('a download\'s complete error answer is still quoted, and its connection kept for the next request', async () => {
    const server = await serve((_req, res) => answer(res, 404, { error: 'result expired' }));
    const c = testClient(server.origin, { retry: { attempts: 1 } });
    for (let i = 0; i < 2; i++) expect((await rejection(c.downloadResult(`${server.origin}/r.png`))).message).toMatch(/result expired/);
    expect(server.sockets).toHaveLength(1);
  });

  it('a redirect whose body keeps streaming: its connection is closed when the redirect is followed, not drained', async () => {
    let sent = { bytes: 0 };
    let redirectClosed = false;
    const server = await serve((req, res) => {
      if (req.url === '/api/v1/moved') return answer(res, 200, BALANCE);
      res.writeHead(302, { Location: '/api/v1/moved', 'Content-Type': 'text/plain' });
      res.once('close', () => (redirectClosed = true));
      sent = endlessBody(res);
    });
    expect((await testClient(server.origin).getBalance()).apiCredits).toBe(10);
    await closedWithin(server.seen[0]!.socket, 500);
    const after = sent.bytes;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(redirectClosed).toBe(true);
    expect(sent.bytes).toBe(after);
  });

  it('a redirect that arrived whole keeps its connection for the next hop', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/api/v1/moved') return answer(res, 200, BALANCE);
      res.writeHead(302, { Location: '/api/v1/moved', 'Content-Type': 'text/plain' });
      res.end('moved');
    });
    expect((await testClient(server.origin).getBalance()).apiCredits).toBe(10);
    expect(server.seen.map((s) => s.url)).toEqual(['/api/v1/balance', '/api/v1/moved']);
    expect(server.sockets).toHaveLength(1);
  });
  it('an answer (not a download) whose body stalls after its headers: still under the request timeout', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(_req.method === 'POST' ? 202 : 200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"apiCredits":');
    });
    const read = await rejection(within(testClient(server.origin, { timeoutMs: 300, retry: { attempts: 1 } }).getBalance(), 3_000));
    expect(read.code).toBe('timeout');
    const outcome = await within(testClient(server.origin, { executeTimeoutMs: 300 }).execute(WORKFLOW, REQUEST), 3_000);
    expect(outcome.kind).toBe('unknown');
    expect(server.executes()).toBe(1);
  });

  it('an answer past the size cap: a read fails once as a server problem, an execute is "unknown" (sent once)', async () => {
    // Streamed without a length (the cap is counted as it arrives) for reads; declared up front for the execute.
    const server = await serve((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(ANSWER_MAX_BYTES + 1) });
        res.write('{"executionId":"ex_1",');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      endlessBody(res);
    });
    const read = await rejection(within(testClient(server.origin, { timeoutMs: 20_000 }).getBalance(), 15_000));
    expect(read.code).toBe('server');
    expect(read.message).toMatch(/answer was too large .*more than 16 MB/);
    expect(server.seen.filter((s) => s.method === 'GET')).toHaveLength(1); // not asked again
    await closedWithin(server.sockets[0]!, 1_000);
    const outcome = await within(testClient(server.origin).execute(WORKFLOW, REQUEST), 5_000);
    expect(outcome.kind).toBe('unknown');
    expect(server.executes()).toBe(1);
  });
});

