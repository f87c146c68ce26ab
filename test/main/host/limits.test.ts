import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createEventBus } from '../../../main/core/app/event-bus';
import type { Core } from '../../../main/core/app/types';
import { browserHostCapabilities, startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { DEFAULT_BROWSER_HOST_LIMITS } from '../../../main/host/limits';
import { createHostMediaRegistry } from '../../../main/host/media-registry';
import type { Handlers } from '../../../shared/ipc/contract';

// The browser host runs on NAS boxes and servers: every resource a client can make it hold is bounded, and each
// limit answers with a clear error. Small limits here; the defaults are in limits.ts and docs/security.md.

const TOKEN = 'L'.repeat(43);
let dir: string;
let host: BrowserHost;
let core: Core;
let release: () => void = () => undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-limits-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Batchroom UI</title>');
  const media = createHostMediaRegistry();
  const caps = browserHostCapabilities(media);
  const bus = createEventBus();
  const gate = new Promise<void>((resolve) => (release = resolve));
  const handlers = {
    'app:info': () => ({ version: '0.1.0', host: caps.host, platform: caps.platform }),
    // Slow on purpose: requests pile up in flight.
    'balance:get': async () => {
      await gate;
      return { apiCredits: 1, webCredits: { total: 0, breakdown: [] } };
    },
  } as unknown as Handlers;
  core = { handlers, onEvent: bus.onEvent, emit: bus.emit, secrets: () => [], hasArmedHotFolders: () => false, busyCount: () => 0, shutdown: async () => undefined };
  host = await startBrowserHost({
    core, media, rendererDir, uploadDir: join(dir, 'uploads'), token: TOKEN,
    limits: {
      maxConnections: 4, headersTimeoutMs: 400, idleTimeoutMs: 600, maxUploadFileBytes: 10, maxStagedFiles: 1, maxDropFiles: 3, maxDropBytes: 8,
      maxMessageBytes: 64 * 1024, maxInFlightPerClient: 2, maxOutboundBufferBytes: 32 * 1024,
    },
  });
});
afterAll(async () => {
  release();
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

function rawSocket(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}
function upload(body: Buffer, drop = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path: `/upload?name=a.jpg${drop}&token=${TOKEN}`, headers: { host: `127.0.0.1:${host.port}` } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
function openWs(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${TOKEN}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}
const closed = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

describe('browser host limits', () => {
  it('has documented, finite defaults for every limit', () => {
    for (const [name, value] of Object.entries(DEFAULT_BROWSER_HOST_LIMITS)) {
      expect(Number.isFinite(value) && value > 0, name).toBe(true);
    }
  });

  it('answers connections beyond the limit with 503 and a reason', async () => {
    // Slots are counted for connections that showed the token (token-less ones are bounded apart: unauth-sockets.test).
    const held = await Promise.all(Array.from({ length: 4 }, async () => {
      const socket = await rawSocket();
      socket.write(`GET /?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
      await new Promise((resolve) => socket.once('data', resolve));
      return socket;
    }));
    const extra = await rawSocket();
    const reply = await readAll(extra);
    expect(reply).toMatch(/^HTTP\/1\.1 503/);
    expect(reply).toContain('Too many connections');
    await Promise.all(held.map((socket) => new Promise((resolve) => {
      socket.once('close', resolve);
      socket.destroy();
    })));
    // The host counts a connection as gone on its own 'close'; give it a moment to see them.
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('closes a connection that never finishes its headers (408)', async () => {
    const socket = await rawSocket();
    socket.write(`GET /?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n`);
    const reply = await readAll(socket);
    expect(reply).toMatch(/408|^$/);
    expect(socket.destroyed || socket.readableEnded).toBe(true);
  });

  it('closes an idle connection', async () => {
    const socket = await rawSocket();
    await readAll(socket); // resolves only when the host closes it
    expect(socket.readableEnded || socket.destroyed).toBe(true);
  });

  it('refuses a drop declared over the per-drop limits at its first file, before anything is staged (413)', async () => {
    const many = await upload(Buffer.alloc(5), '&drop=d1&files=4&bytes=20');
    expect(many.status).toBe(413);
    expect(many.body).toContain('this drop has 4 photos');
    expect(many.body).toContain('add the folder by path');
    const heavy = await upload(Buffer.alloc(5), '&drop=d2&files=2&bytes=9000000000');
    expect(heavy.status).toBe(413);
    expect(heavy.body).toContain('this drop holds 8 GiB');
  });

  it('refuses an upload over the per-file size (413) and beyond the staging limit (507)', async () => {
    const big = await upload(Buffer.alloc(11));
    expect(big.status).toBe(413);
    expect(big.body).toContain('file too large');
    expect((await upload(Buffer.alloc(5))).status).toBe(200);
    const full = await upload(Buffer.alloc(5));
    expect(full.status).toBe(507);
    expect(full.body).toContain('too many staged uploads');
  });

  it('closes a WebSocket that sends a message over the size limit (1009)', async () => {
    const ws = await openWs();
    const done = closed(ws);
    ws.send('x'.repeat(65 * 1024));
    expect((await done).code).toBe(1009);
  });

  it('answers a hostile message with a reply far smaller than it (no amplification)', async () => {
    const ws = await openWs();
    const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    const args = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]));
    const message = JSON.stringify({ id: 1, channel: 'app:info', args });
    ws.send(message);
    const text = await reply;
    expect(JSON.parse(text).result).toMatchObject({ ok: false, code: 'bad_request' });
    expect(text.length).toBeLessThan(message.length / 4);
    ws.close();
  });

  it('refuses invokes beyond the in-flight limit per client with rate_limited', async () => {
    const ws = await openWs();
    const answers: Array<{ id: number; result: { ok: boolean; code?: string } }> = [];
    ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
    for (let id = 1; id <= 4; id += 1) ws.send(JSON.stringify({ id, channel: 'balance:get', args: {} }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers.map((a) => a.result.code)).toEqual(['rate_limited', 'rate_limited']);
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers.filter((a) => a.result.ok)).toHaveLength(2);
    ws.close();
  });

  it('disconnects a client whose outbound buffer would pass the limit (1008)', async () => {
    const ws = await openWs();
    const done = closed(ws);
    core.emit('app:notice', { level: 'info', message: 'y'.repeat(40 * 1024) });
    const { code, reason } = await done;
    expect(code).toBe(1008);
    expect(reason).toContain('outbound buffer full');
  });
});
