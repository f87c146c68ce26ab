import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../../main/core/service/node-transport';
import { REQUEST, WORKFLOW, rejection, testClient } from './fixtures';

// TLS on real sockets: a failure before the handshake finished never sent the request (and a certificate problem is
// not retried); once the handshake is done, a broken connection may have delivered it.

// CI installs openssl (.ci/run), so there these tests never skip: a missing openssl fails them instead.
const hasOpenssl = spawnSync('openssl', ['version']).status === 0 || Boolean(process.env.CI);
const dir = mkdtempSync(join(tmpdir(), 'batchroom-tls-'));
let key = '';
let cert = '';
beforeAll(() => {
  if (!hasOpenssl) return;
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${String(made.stderr)}`);
  key = readFileSync(join(dir, 'key.pem'), 'utf8');
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Handles each request after reading its whole body; counts them. */
function recording(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = [];
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    for await (const chunk of req) void chunk;
    seen.push(`${req.method} ${req.url}`);
    handle(req, res);
  };
  return { seen, handler };
}

const accepted = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(202, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ executionId: 'ex_1', status: 'queued' }));
};

describe.skipIf(!hasOpenssl)('the node transport over TLS', () => {
  it('TLS to a plain-HTTP port: never sent, not retried, and an execute is an error (not "unknown")', async () => {
    const { seen, handler } = recording(accepted);
    const origin = await listen(createHttpServer(handler));
    const c = testClient(origin);
    const error = await rejection(c.execute(WORKFLOW, REQUEST));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/securely.*TLS problem/);
    expect(c.delays).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });

  it('a self-signed certificate: never sent, not retried', async () => {
    const { seen, handler } = recording(accepted);
    const origin = await listen(createHttpsServer({ key, cert }, handler));
    const c = testClient(origin);
    const error = await rejection(c.execute(WORKFLOW, REQUEST));
    expect(error.message).toMatch(/SELF_SIGNED/);
    expect(c.delays).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });

  it('a handshake that never finishes: given up as never sent, and tried again', async () => {
    let connections = 0;
    // Accepts TCP, never says a word (and lets go of each connection as soon as the client does).
    const origin = await listen(createNetServer((socket) => {
      connections++;
      socket.resume();
    }));
    const c = testClient(origin, { transport: createNodeTransport({ connectTimeoutMs: 150 }), executeTimeoutMs: 5_000 });
    const error = await rejection(c.execute(WORKFLOW, REQUEST));
    expect(error.message).toMatch(/no connection to 127\.0\.0\.1:\d+ in time/);
    expect(c.delays).toHaveLength(2);
    expect(connections).toBe(3);
  });

  it('a trusted server: an execute is accepted; the connection broken after the body arrived is "unknown", sent once', async () => {
    let drop = false;
    const { seen, handler } = recording((req, res) => (drop ? req.socket.destroy() : accepted(req, res)));
    const origin = await listen(createHttpsServer({ key, cert }, handler));
    const c = testClient(origin, { transport: createNodeTransport({ ca: cert }) });
    expect(await c.execute(WORKFLOW, REQUEST)).toEqual({ kind: 'accepted', executionId: 'ex_1' });
    drop = true;
    const outcome = await testClient(origin, { transport: createNodeTransport({ ca: cert }) }).execute(WORKFLOW, REQUEST);
    expect(outcome.kind).toBe('unknown');
    expect(seen).toHaveLength(2);
  });
});
