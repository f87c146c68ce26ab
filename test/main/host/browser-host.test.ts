import { mkdtemp, mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createEventBus } from '../../../main/core/app/event-bus';
import type { Core, ServiceCore } from '../../../main/core/app/types';
import { browserHostCapabilities, startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { createHostMediaRegistry } from '../../../main/host/media-registry';
import type { Api, Handlers } from '../../../shared/ipc/contract';
import { AppError } from '../../../shared/errors';

// The renderer's bridge is browser code (DOM types): loaded by path at run time so the Node type-check of this test
// does not pull renderer/ into a project without DOM types. `WebSocket` is provided below by the `ws` package.
const WS_BRIDGE_MODULE = '../../../renderer/bridge/ws-bridge';
type CreateWsBridge = (url: string, token?: string | null) => Api;

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function openWs(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('browser host', () => {
  let dir: string;
  let host: BrowserHost;
  let core: Core;
  let registeredUrl: string;
  let media: ReturnType<typeof createHostMediaRegistry>;
  const secretKey = 'sk_test_supersecretvalue1234';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-host-'));
    const rendererDir = join(dir, 'renderer');
    await mkdir(join(rendererDir, 'assets'), { recursive: true });
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Batchroom UI</title>');
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(dir, 'secret.txt'), 'not for you');
    await writeFile(join(dir, 'photo.jpg'), 'jpeg bytes');
    await writeFile(join(dir, 'swap.jpg'), 'jpeg bytes');
    await writeFile(join(rendererDir, 'assets', 'app.js.map'), '{"sources":["secret source"]}');
    await symlink(join(dir, 'secret.txt'), join(rendererDir, 'assets', 'link.js'));
    await symlink(dir, join(rendererDir, 'up'));
    media = createHostMediaRegistry();
    const caps = browserHostCapabilities(media);
    const bus = createEventBus();
    const handlers = {
      'app:info': () => ({ version: '0.1.0', host: caps.host, platform: caps.platform }),
      'files:previewUrl': ({ path }: { path: string }) => ({ url: caps.previewUrlFor(path) }),
      'balance:get': () => {
        throw new Error(`upstream said Bearer ${secretKey}`);
      },
      'workflows:get': () => {
        throw new AppError('insufficient_credits', 'this batch costs 39 credits but the balance is 36', {
          field: 'inputs.paths', hint: `Top up (key ${secretKey} untouched)`, required: 39, available: 36, requestBody: 'stays in main',
        });
      },
    } as unknown as Handlers;
    core = {
      handlers, onEvent: bus.onEvent, emit: bus.emit, secrets: () => [secretKey], hasArmedHotFolders: () => false,
      busyCount: () => 0, shutdown: async () => undefined,
    };
    host = await startBrowserHost({ core, media, rendererDir, uploadDir: join(dir, 'uploads'), token: 'T'.repeat(43) });
    registeredUrl = caps.previewUrlFor(join(dir, 'photo.jpg'));
  });

  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page with the token and sets an HttpOnly SameSite=Strict cookie that then suffices', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    const first = await raw(host.port, `/?token=${host.token}`);
    expect(first.status).toBe(200);
    expect(first.body).toContain('Batchroom UI');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const again = await raw(host.port, '/assets/app.js', { cookie: cookie.split(';')[0]! });
    expect(again.status).toBe(200);
    expect(again.body).toBe('console.log(1)');
  });

  it('refuses a missing or wrong token', async () => {
    expect((await raw(host.port, '/')).status).toBe(401);
    expect((await raw(host.port, '/?token=wrong')).status).toBe(401);
    expect((await raw(host.port, '/', { cookie: `batchroom_token_${host.port}=nope` })).status).toBe(401);
    expect((await raw(host.port, registeredUrl)).status).toBe(401);
  });

  it('refuses foreign Origin and Host headers even with the token', async () => {
    const path = `/?token=${host.token}`;
    expect((await raw(host.port, path, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await raw(host.port, path, { origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await raw(host.port, path, { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await raw(host.port, path, { origin: `http://localhost:${host.port}` })).status).toBe(200);
  });

  it('serves registered media only, and no path traversal reaches other files', async () => {
    const t = `token=${host.token}`;
    const ok = await raw(host.port, `${registeredUrl}?${t}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('jpeg bytes');
    expect(ok.headers['content-type']).toBe('image/jpeg');
    const id = registeredUrl.split('/')[2];
    for (const path of [
      `/media/${id}/../secret.txt`, `/media/${id}/..%2f..%2fsecret.txt`, '/media/../secret.txt', '/media/0000/secret.txt',
      '/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e%2f%2e%2e%2fsecret.txt',
    ]) {
      const reply = await raw(host.port, `${path}?${t}`);
      expect(reply.body, path).not.toContain('not for you');
      // The id alone selects a file: a request either gets the registered photo or nothing.
      if (reply.status === 200) expect(reply.body, path).toBe('jpeg bytes');
      else expect(reply.status, path).toBe(404);
    }
  });

  it('serves nothing of the renderer folder through a symlink out of it, and no source maps', async () => {
    const t = `token=${host.token}`;
    for (const path of ['/assets/link.js', '/up/secret.txt', '/up/photo.jpg', '/assets/app.js.map', '/assets/app.js%2Emap']) {
      const reply = await raw(host.port, `${path}?${t}`);
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).not.toMatch(/not for you|secret source|jpeg bytes/);
    }
  });

  it('serves a registered preview only while it is still the registered file (no symlink swapped in)', async () => {
    const t = `token=${host.token}`;
    const url = media.urlFor(join(dir, 'swap.jpg'));
    expect((await raw(host.port, `${url}?${t}`)).status).toBe(200);
    await unlink(join(dir, 'swap.jpg'));
    await symlink(join(dir, 'secret.txt'), join(dir, 'swap.jpg'));
    const reply = await raw(host.port, `${url}?${t}`);
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('not for you');
  });

  it('stages uploads in the upload dir under a sanitized name', async () => {
    const reply = await raw(host.port, `/upload?name=${encodeURIComponent('../../evil/IMG 1.jpg')}&token=${host.token}`, {}, 'POST', Buffer.from('pixels'));
    expect(reply.status).toBe(200);
    const { path } = JSON.parse(reply.body) as { path: string };
    expect(path.startsWith(join(dir, 'uploads'))).toBe(true);
    expect(path.endsWith('IMG 1.jpg')).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('pixels');
    const foreign = await raw(host.port, `/upload?name=x.jpg&token=${host.token}`, { origin: 'http://evil.example' }, 'POST', Buffer.from('x'));
    expect(foreign.status).toBe(403);
  });

  it('refuses WebSocket upgrades without the token or from another origin', async () => {
    const base = `ws://127.0.0.1:${host.port}/ws`;
    await expect(openWs(base, {})).rejects.toThrow(/401/);
    await expect(openWs(`${base}?token=wrong`, {})).rejects.toThrow(/401/);
    await expect(openWs(`${base}?token=${host.token}`, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });

  it('round-trips an invoke and an event through a real WebSocket, with the dispatcher\'s envelopes', async () => {
    const ws = await openWs(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
    const messages: Array<Record<string, unknown>> = [];
    const next = () => new Promise<Record<string, unknown>>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
    try {
      let reply = next();
      ws.send(JSON.stringify({ id: 1, channel: 'app:info', args: {} }));
      expect(await reply).toEqual({ id: 1, result: { ok: true, data: { version: '0.1.0', host: 'browser', platform: process.platform } } });

      reply = next();
      ws.send(JSON.stringify({ id: 2, channel: 'app:info', args: { extra: true } }));
      expect(await reply).toMatchObject({ id: 2, result: { ok: false, code: 'bad_request' } });

      reply = next();
      ws.send(JSON.stringify({ id: 3, channel: 'nope:nothing', args: {} }));
      expect(await reply).toMatchObject({ id: 3, result: { ok: false, code: 'bad_request' } });

      reply = next();
      ws.send(JSON.stringify({ id: 4, channel: 'balance:get', args: {} }));
      const failed = JSON.stringify(await reply);
      expect(failed).toContain('"code":"internal"');
      expect(failed).not.toContain(secretKey);

      reply = next();
      ws.send('not json');
      expect(await reply).toMatchObject({ id: null, result: { ok: false, code: 'bad_request' } });

      reply = next();
      core.emit('app:notice', { level: 'info', message: 'hello' });
      messages.push(await reply);
      expect(messages[0]).toEqual({ event: 'app:notice', payload: { level: 'info', message: 'hello' } });
    } finally {
      ws.close();
    }
  });

  it('drives the renderer bridge (createWsBridge) end to end', async () => {
    const g = globalThis as { WebSocket?: unknown };
    const previous = g.WebSocket;
    g.WebSocket = class extends WebSocket {
      constructor(url: string) {
        super(url, { headers: { origin: `http://127.0.0.1:${host.port}` } });
      }
    };
    try {
      const { createWsBridge } = (await import(/* @vite-ignore */ WS_BRIDGE_MODULE)) as { createWsBridge: CreateWsBridge };
      const api = createWsBridge(`ws://127.0.0.1:${host.port}/ws`, host.token);
      expect(await api.app.info()).toMatchObject({ ok: true, data: { host: 'browser' } });
      // A typed error crosses the socket whole: code, message, field, hint and the whitelisted detail, key redacted.
      expect(await api.workflows.get({ id: 'x' })).toEqual({
        ok: false, code: 'insufficient_credits', message: 'this batch costs 39 credits but the balance is 36', field: 'inputs.paths',
        hint: 'Top up (key sk_test_…1234 untouched)', detail: { required: 39, available: 36 },
      });
      const preview = await api.files.previewUrl({ path: join(dir, 'photo.jpg') });
      expect(preview).toEqual({ ok: true, data: { url: registeredUrl } });
      const notice = new Promise((resolve) => api.app.onNotice(resolve));
      core.emit('app:notice', { level: 'warning', message: 'via bridge' });
      expect(await notice).toEqual({ level: 'warning', message: 'via bridge' });
    } finally {
      g.WebSocket = previous;
    }
  });

  it('serves the page while the core is still starting; calls made meanwhile are answered once it is up', async () => {
    let started!: (core: Core) => void;
    const starting = new Promise<Core>((resolve) => (started = resolve));
    const early = await startBrowserHost({ core: starting, media, rendererDir: join(dir, 'renderer'), uploadDir: join(dir, 'uploads-early'), token: 'E'.repeat(43) });
    try {
      expect((await raw(early.port, `/?token=${early.token}`)).status).toBe(200);
      const ws = await openWs(`ws://127.0.0.1:${early.port}/ws?token=${early.token}`, { origin: `http://127.0.0.1:${early.port}` });
      try {
        const replies: Array<Record<string, unknown>> = [];
        ws.on('message', (d) => replies.push(JSON.parse(String(d)) as Record<string, unknown>));
        ws.send(JSON.stringify({ id: 7, channel: 'app:info', args: {} }));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(replies).toEqual([]); // waiting for the core, not refused
        started(core);
        await expect.poll(() => replies.length).toBe(1);
        expect(replies[0]).toEqual({ id: 7, result: { ok: true, data: { version: '0.1.0', host: 'browser', platform: process.platform } } });
        core.emit('app:notice', { level: 'info', message: 'after start' });
        await expect.poll(() => replies.length).toBe(2);
        expect(replies[1]).toEqual({ event: 'app:notice', payload: { level: 'info', message: 'after start' } });
      } finally {
        ws.close();
      }
    } finally {
      await early.close();
    }
  });

  it('a core that never starts (failed, or Ctrl-C first) leaves no unhandled rejection behind (the caller reports it, or exits cleanly)', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    let fail!: (error: Error) => void;
    const starting = new Promise<Core>((_resolve, reject) => (fail = reject));
    const service = starting.then(() => new Promise<ServiceCore>(() => {}));
    service.catch(() => undefined);
    const early = await startBrowserHost({ core: starting, service, media, rendererDir: join(dir, 'renderer'), uploadDir: join(dir, 'uploads-failed'), token: 'G'.repeat(43) });
    try {
      fail(new Error('stopped before the core was up'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect((await raw(early.port, `/?token=${early.token}`)).status).toBe(200); // still serving until the caller closes it
    } finally {
      process.off('unhandledRejection', record);
      await early.close();
    }
  });

  it('answers the service channels once the service is up, while the rest waits for the core', async () => {
    let started!: (core: Core) => void;
    const starting = new Promise<Core>((resolve) => (started = resolve));
    let serviceUp!: (service: ServiceCore) => void;
    const service = new Promise<ServiceCore>((resolve) => (serviceUp = resolve));
    const catalog = { workflows: [] };
    let catalogsAnswered = 0;
    const early = await startBrowserHost({
      core: starting, service, onCatalogAnswered: () => (catalogsAnswered += 1), media, rendererDir: join(dir, 'renderer'), uploadDir: join(dir, 'uploads-service'), token: 'F'.repeat(43),
    });
    try {
      const ws = await openWs(`ws://127.0.0.1:${early.port}/ws?token=${early.token}`, { origin: `http://127.0.0.1:${early.port}` });
      try {
        const replies: Array<Record<string, unknown>> = [];
        ws.on('message', (d) => replies.push(JSON.parse(String(d)) as Record<string, unknown>));
        ws.send(JSON.stringify({ id: 1, channel: 'workflows:list', args: {} }));
        ws.send(JSON.stringify({ id: 2, channel: 'app:info', args: {} }));
        ws.send(JSON.stringify({ id: 3, channel: 'workflows:list', args: { tag: 7 } }));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(replies).toEqual([]);
        serviceUp({
          handlers: {
            'workflows:list': async () => catalog,
            'workflows:get': () => Promise.reject(new Error(`upstream said Bearer ${secretKey}`)),
          } as unknown as ServiceCore['handlers'],
          secrets: () => [secretKey],
        });
        await expect.poll(() => replies.length).toBe(2);
        // Through the same dispatcher as ever: the contract checks the arguments, the app:info call still waits.
        expect(replies).toContainEqual({ id: 1, result: { ok: true, data: catalog } });
        expect(replies).toContainEqual(expect.objectContaining({ id: 3, result: expect.objectContaining({ ok: false, code: 'bad_request' }) }));
        ws.send(JSON.stringify({ id: 4, channel: 'workflows:get', args: { id: 'x' } }));
        await expect.poll(() => replies.length).toBe(3);
        expect(JSON.stringify(replies[2])).not.toContain(secretKey); // redacted with the service's secrets
        expect(catalogsAnswered).toBe(1); // once, for the first catalog only
        started(core);
        await expect.poll(() => replies.length).toBe(4);
        expect(replies[3]).toEqual({ id: 2, result: { ok: true, data: { version: '0.1.0', host: 'browser', platform: process.platform } } });
      } finally {
        ws.close();
      }
    } finally {
      await early.close();
    }
  });
});
