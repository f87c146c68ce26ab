import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StubHandler = (req: StubRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

/**
 * A tiny programmable HTTP server: each request is recorded and handed to the next queued handler (the last one
 * repeats). Handlers can answer any wire shape, stall, or destroy the socket before or after reading the body.
 */
export async function startStub(host = '127.0.0.1') {
  const requests: StubRequest[] = [];
  let handlers: StubHandler[] = [];
  const server: Server = createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const req: StubRequest = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(req);
    const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
    if (!handler) return json(res, 500, { error: 'no handler' });
    await handler(req, res, raw);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    /** Handlers for the next requests, in order; the last one answers every request after that. */
    reply(...next: StubHandler[]) {
      handlers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export const ok = (body: unknown, headers?: Record<string, string>): StubHandler => (_req, res) => json(res, 200, body, headers);
export const status = (code: number, body: unknown = {}, headers?: Record<string, string>): StubHandler => (_req, res) => json(res, code, body, headers);
/** Destroys the connection after the request (and its body) arrived: the service may have acted on it. */
export const drop: StubHandler = (_req, res) => {
  res.socket?.destroy();
};
/** Never answers (until the connection is closed by the client or the server). */
export const hang: StubHandler = () => undefined;
