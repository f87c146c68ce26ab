import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../main/core/app/event-bus';
import type { Core } from '../../../main/core/app/types';
import { startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { DEFAULT_BROWSER_HOST_LIMITS } from '../../../main/host/limits';
import { createHostMediaRegistry } from '../../../main/host/media-registry';
import type { Handlers } from '../../../shared/ipc/contract';

// Issue 30 item 6: token-less clients that trickle a body after their 401 once kept their sockets, and 64 of them
// made every legitimate request 503 for 600 s. Default limits here, real sockets.

const TOKEN = 'U'.repeat(43);
let dir: string;
let host: BrowserHost;
const open: Socket[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-unauth-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Batchroom UI</title>');
  const bus = createEventBus();
  const core: Core = { handlers: {} as Handlers, onEvent: bus.onEvent, emit: bus.emit, secrets: () => [], hasArmedHotFolders: () => false, busyCount: () => 0, shutdown: async () => undefined };
  host = await startBrowserHost({ core, media: createHostMediaRegistry(), rendererDir, uploadDir: join(dir, 'uploads'), token: TOKEN });
});
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

function rawSocket(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
    open.push(socket);
  });
}

/** A token-less upload that sends its headers and then a byte of its declared megabyte every 50 ms. */
async function trickler(): Promise<{ socket: Socket; reply: () => string; closed: Promise<void> }> {
  const socket = await rawSocket();
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /upload?name=a.jpg HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nContent-Length: 1000000\r\n\r\n`);
  const timer = setInterval(() => (socket.writable ? socket.write('x') : clearInterval(timer)), 50);
  void closed.then(() => clearInterval(timer));
  return { socket, reply: () => text, closed };
}

function authenticatedGet(): Promise<string> {
  return new Promise((resolve) => {
    void rawSocket().then((socket) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
      socket.write(`GET /?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`);
    });
  });
}

describe('token-less sockets', () => {
  it('are closed with their 401, and a flood of them never keeps an authenticated request out', async () => {
    const count = DEFAULT_BROWSER_HOST_LIMITS.maxConnections + 8;
    const flood = await Promise.all(Array.from({ length: count }, trickler));
    const within = (ms: number) => new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms));
    // Every 401'd socket is closed by the host, body still trickling (before the fix: all still open).
    const outcomes = await Promise.all(flood.map((f) => Promise.race([f.closed.then(() => 'closed' as const), within(3_000)])));
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(0);
    expect(flood.filter((f) => f.reply().startsWith('HTTP/1.1 401')).length).toBeGreaterThan(0);
    expect(flood.every((f) => f.reply() === '' || /^HTTP\/1\.1 401[^]*Connection: close/i.test(f.reply()))).toBe(true);
    expect(await authenticatedGet()).toMatch(/^HTTP\/1\.1 200/);
  });

  it('bounded apart: idle token-less sockets past their own limit push out the oldest, not the page', async () => {
    const idle = await Promise.all(Array.from({ length: DEFAULT_BROWSER_HOST_LIMITS.maxConnections + 8 }, rawSocket));
    const reply = await authenticatedGet();
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    // Give the host's closes a moment to arrive, then count the pushed-out ones.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pushedOut = idle.filter((s) => s.destroyed || s.readableEnded).length;
    expect(pushedOut).toBeGreaterThanOrEqual(idle.length - DEFAULT_BROWSER_HOST_LIMITS.maxUnauthenticatedConnections);
  });
});
