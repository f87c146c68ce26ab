import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../../main/core/service/client';
import { ServiceError } from '../../../main/core/service/errors';
import { USER_AGENT } from '../../../shared/app-info';
import { fakeSleep, TEST_KEY, WORKFLOW_WIRE, rejection, testClient } from './fixtures';
import { drop, hang, json, ok, startStub, status } from './stub-server';

type Stub = Awaited<ReturnType<typeof startStub>>;
let stub: Stub;
let other: Stub | undefined;

beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
  await other?.close();
  other = undefined;
});

const client = (extra: Partial<ServiceClientOptions> = {}) => testClient(stub.origin, extra);


describe('requests', () => {
  it.each(['', '/', '/api/v1', '/api/v1/'])('accepts the base URL with suffix %j and sends key, user agent and accept', async (suffix) => {
    stub.reply(ok({ workflows: [] }));
    const c = client({ baseUrl: `${stub.origin}${suffix}` });
    expect(c.baseUrl).toBe(`${stub.origin}/api/v1`);
    await c.listWorkflows({ tag: 'a b' });
    const [req] = stub.requests;
    expect(req!.url).toBe('/api/v1/workflows?tag=a%20b');
    expect(req!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(req!.headers['user-agent']).toBe(USER_AGENT);
    expect(req!.headers.accept).toBe('application/json');
  });

  it('calls every endpoint on its path', async () => {
    stub.reply(
      ok({ data: [{ id: 'warm-look', name: 'Warm', credits: 2 }] }),
      ok(WORKFLOW_WIRE),
      ok({ id: 'ex/1', status: 'processing', progress: '30' }),
      ok({ apiCredits: 10, webCredits: { total: 0, breakdown: [] } }),
    );
    const c = client();
    expect((await c.listWorkflows()).workflows).toHaveLength(1);
    expect((await c.getWorkflow('warm look')).inputSchema.imageFields).toHaveLength(1);
    expect(await c.getExecution('ex/1')).toMatchObject({ status: 'running', progress: 30 });
    expect((await c.getBalance()).apiCredits).toBe(10);
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/workflows', 'GET /api/v1/workflows/warm%20look', 'GET /api/v1/executions/ex%2F1', 'GET /api/v1/balance',
    ]);
  });

  it('refuses plain http to another machine unless explicitly allowed', () => {
    expect(() => createServiceClient({ baseUrl: 'http://api.example.com', apiKey: TEST_KEY })).toThrow(/plain http/);
    try {
      createServiceClient({ baseUrl: 'http://api.example.com', apiKey: TEST_KEY });
    } catch (error) {
      expect((error as ServiceError).code).toBe('unsupported');
      expect((error as Error).message).not.toContain(TEST_KEY);
    }
    expect(createServiceClient({ baseUrl: 'http://api.example.com', apiKey: TEST_KEY, allowInsecureHttp: true }).baseUrl).toBe('http://api.example.com/api/v1');
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:9000']) {
      expect(() => createServiceClient({ baseUrl: `http://${host}`, apiKey: TEST_KEY })).not.toThrow();
    }
    // A *.localhost name goes through DNS like any other: not loopback (issue 30 item 8).
    expect(() => createServiceClient({ baseUrl: 'http://sandbox.localhost', apiKey: TEST_KEY })).toThrow(/plain http/);
    expect(createServiceClient({ baseUrl: 'HTTPS://API.Example.com/v2/', apiKey: TEST_KEY }).baseUrl).toBe('https://api.example.com/v2/api/v1');
    expect(() => createServiceClient({ baseUrl: 'ftp://x', apiKey: TEST_KEY })).toThrow();
  });

  it('passes the Retry-After of a status answer on to the poller', async () => {
    stub.reply(ok({ id: 'e', status: 'queued' }, { 'Retry-After': '3' }));
    expect((await client().getExecution('e')).retryAfterMs).toBe(3000);
  });
});

describe('GET retries', () => {
  it('retries 5xx, 429, 408, dropped connections and truncated JSON, then succeeds', async () => {
    stub.reply(status(500), drop, status(502, '<html>bad gateway</html>'), status(429, {}, { 'Retry-After': '0' }), (_r, res) => json(res, 200, '{"apiCredits": 1'), status(408), ok({ apiCredits: 1 }));
    const c = client({ retry: { attempts: 7, baseDelayMs: 10, maxDelayMs: 50, totalMs: 10_000, sleep: fakeSleep().sleep } });
    expect((await c.getBalance()).apiCredits).toBe(1);
    expect(stub.requests).toHaveLength(7);
  });

  it('uses full-jitter exponential backoff bounded by maxDelayMs', async () => {
    stub.reply(status(503));
    const recorded: number[] = [];
    const c = client({ retry: { attempts: 6, baseDelayMs: 100, maxDelayMs: 300, totalMs: 60_000, random: () => 0.99, sleep: async (ms) => void recorded.push(ms) } });
    await rejection(c.getBalance());
    expect(recorded).toEqual([99, 198, 297, 297, 297]);
    expect(stub.requests).toHaveLength(6);
  });

  it('honours Retry-After as a floor and gives up when it exceeds the time budget', async () => {
    stub.reply(status(429, { error: 'slow down' }, { 'Retry-After': '2' }), ok({ apiCredits: 1 }));
    const c = client();
    await c.getBalance();
    expect(c.delays).toHaveLength(1);
    expect(c.delays[0]).toBeGreaterThanOrEqual(2000);

    stub.requests.length = 0;
    stub.reply(status(429, {}, { 'Retry-After': '120' }));
    const limited = await rejection(client({ retry: { totalMs: 1_000, sleep: fakeSleep().sleep } }).getBalance());
    expect(limited.code).toBe('rate_limited');
    expect(limited.retryAfterMs).toBe(120_000);
    expect(stub.requests).toHaveLength(1);
  });

  it('gives up after the configured attempts with the last error', async () => {
    stub.reply(status(500, { error: { message: 'database down' } }));
    const error = await rejection(client().getBalance());
    expect(error.code).toBe('server');
    expect(error.message).toContain('database down');
    expect(stub.requests).toHaveLength(3);
  });

  it('does not retry answers that will not change (404, 401, 422)', async () => {
    for (const [code, expected] of [[404, 'not_found'], [401, 'unauthorized'], [422, 'validation']] as const) {
      stub.requests.length = 0;
      stub.reply(status(code));
      expect((await rejection(client().getWorkflow('x'))).code).toBe(expected);
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('times out each try and reports a timeout when every try hangs', async () => {
    stub.reply(hang);
    const error = await rejection(client({ timeoutMs: 100 }).getBalance());
    expect(error.code).toBe('timeout');
    expect(stub.requests).toHaveLength(3);
  });

  it('retries a refused connection and reports a network error naming the host', async () => {
    const port = stub.port;
    await stub.close();
    const error = await rejection(client().getBalance());
    expect(error.code).toBe('network');
    expect(error.message).toContain(`connection refused by 127.0.0.1:${port}`);
    stub = await startStub();
  });

  it('is abortable: before the call, during a try and during the backoff', async () => {
    const before = new AbortController();
    before.abort();
    stub.reply(ok({ apiCredits: 1 }));
    expect((await rejection(client().getBalance({ signal: before.signal }))).code).toBe('cancelled');
    expect(stub.requests).toHaveLength(0);

    stub.reply(hang);
    const during = new AbortController();
    setTimeout(() => during.abort(), 50);
    expect((await rejection(client().getBalance({ signal: during.signal }))).code).toBe('cancelled');
    expect(stub.requests).toHaveLength(1);

    stub.reply(status(503));
    const backoff = new AbortController();
    const c = createServiceClient({ baseUrl: stub.origin, apiKey: TEST_KEY, retry: { baseDelayMs: 60_000, maxDelayMs: 60_000, totalMs: 600_000, random: () => 0.5 } });
    setTimeout(() => backoff.abort(), 100);
    expect((await rejection(c.getBalance({ signal: backoff.signal }))).code).toBe('cancelled');
    expect(stub.requests).toHaveLength(2);
  });

  it('leaves no listener behind on a long-lived caller signal', async () => {
    const batch = new AbortController();
    stub.reply(status(500), ok({ apiCredits: 1 }));
    const c = client();
    for (let i = 0; i < 10; i++) await c.getBalance({ signal: batch.signal });
    stub.reply((_r, res) => void res.end('DATA'));
    for (let i = 0; i < 3; i++) await (await c.downloadResult('/r.png', { signal: batch.signal })).text();
    expect(getEventListeners(batch.signal, 'abort')).toHaveLength(0);
  });

  it('raises a shape error naming the endpoint when the answer cannot be mapped', async () => {
    stub.reply(ok({ success: true, data: { plan: 'pro' } }));
    const error = await rejection(client().getBalance());
    expect(error.code).toBe('shape');
    expect(error.message).toContain('GET /api/v1/balance');
    expect(error.message).toContain('plan');
  });
});

describe('downloadResult', () => {
  it('sends the key only to the service origin, also across redirects', async () => {
    other = await startStub('localhost');
    other.reply((_r, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end('PNGDATA');
    });
    stub.reply((req, res) => {
      if (req.url.startsWith('/results/redirect')) {
        res.writeHead(302, { Location: `${other!.origin}/signed/r.png?sig=abc` });
        return void res.end();
      }
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end('OWNDATA');
    });
    const c = client();
    expect(await (await c.downloadResult(`${stub.origin}/results/own.png`)).text()).toBe('OWNDATA');
    expect(await (await c.downloadResult('/results/relative.png')).text()).toBe('OWNDATA');
    expect(await (await c.downloadResult(`${other.origin}/direct.png`)).text()).toBe('PNGDATA');
    expect(await (await c.downloadResult(`${stub.origin}/results/redirect`)).text()).toBe('PNGDATA');
    expect(stub.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`]);
    expect(stub.requests[1]!.url).toBe('/results/relative.png');
    expect(other.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
    expect(other.requests[1]!.url).toBe('/signed/r.png?sig=abc');
  });

  it('retries 5xx, maps 404/410 to not_found and refuses non-http URLs', async () => {
    stub.reply(status(503), (_r, res) => void res.end('DATA'));
    expect(await (await client().downloadResult(`${stub.origin}/r.png`)).text()).toBe('DATA');
    stub.reply(status(410, { error: { code: 'result_expired', message: 'gone' } }));
    expect((await rejection(client().downloadResult(`${stub.origin}/r.png`))).code).toBe('not_found');
    expect((await rejection(client().downloadResult('file:///etc/passwd'))).code).toBe('validation');
  });

  it('fails a body that stalls longer than the timeout instead of hanging', async () => {
    stub.reply((_r, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write('partial');
    });
    const response = await client({ timeoutMs: 150 }).downloadResult(`${stub.origin}/slow.png`);
    const error = await rejection(response.arrayBuffer());
    expect(error.code).toBe('timeout');
  });
});
