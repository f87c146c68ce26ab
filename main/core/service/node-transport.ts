import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

// The service client's transport: node:http(s) with keep-alive agents. Node's fetch (undici) costs 50–80 ms to load
// and initialise at the first request of a process and more CPU per request (web streams); a CLI run spends that
// before its first submit.
//
// What the client must know when a request fails is whether any byte of it can have left this machine (an execute
// that may have arrived may have been charged, and is never sent again automatically). That is decided here from the
// connection's state, never from an error message: request bytes are written only to an established connection (a
// TCP connect for http, a finished TLS handshake for https; Node buffers them until then), so a failure while the
// connection was still being made proves the request never left, whatever its code. Once the connection is up —
// including a kept-alive connection being reused, which the server may have closed just as the request was written
// (ECONNRESET "socket hang up" on a reused socket) — the request may have arrived.

/** How far the connection a request was written to had got when it failed. */
export type WireStage = 'connecting' | 'handshake' | 'established';

/** A request that got no complete answer: its error code (as Node reports it) and whether it can have been sent. */
export class WireFailure extends Error {
  constructor(
    readonly code: string | undefined,
    readonly stage: WireStage,
    options?: { cause?: unknown },
  ) {
    super(`${code ?? 'transport error'} (${stage})`, options);
  }

  /** True only when the request provably never left this machine. */
  get notSent(): boolean {
    return this.stage !== 'established';
  }
}

/** Reads response headers by name, case-insensitively; several values of one header are joined with ", ". */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface WireRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: HeaderReader;
  /** Every header as Node parsed it (lower-case names), for building a web Response. */
  rawHeaders: IncomingMessage['headers'];
  body: Readable;
}

/** Sends one request; rejects with WireFailure (or the signal's AbortError when aborted) when no answer arrived. */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/** Like undici's default: a connection not made within 10 s is given up (and the request was never sent). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Idle kept-alive connections close after 4 s, or 1 s before the server's `Keep-Alive: timeout=N` (Node applies it). */
const IDLE_SOCKET_MS = 4_000;

const STAGE = Symbol('batchroom.wireStage');
type TrackedSocket = Socket & { [STAGE]?: WireStage };

export interface NodeTransportOptions {
  /** Extra trusted certificate authorities (PEM), e.g. a test server's self-signed certificate. */
  ca?: string;
  /** Default 10 s. */
  connectTimeoutMs?: number;
}

/** Agents that record on each new socket, from the moment it is created, when its connection is established. */
function trackingAgent(secure: boolean, ca: string | undefined): HttpAgent {
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo', ...(ca ? { ca } : {}) })
    : new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  const create = agent.createConnection.bind(agent) as (...args: unknown[]) => TrackedSocket | undefined;
  (agent as unknown as { createConnection: (...args: unknown[]) => TrackedSocket | undefined }).createConnection = (...args) => {
    const socket = create(...args);
    if (socket) {
      socket[STAGE] = 'connecting';
      if (secure) {
        socket.once('connect', () => socket[STAGE] === 'connecting' && (socket[STAGE] = 'handshake'));
        socket.once('secureConnect', () => (socket[STAGE] = 'established'));
      } else {
        socket.once('connect', () => (socket[STAGE] = 'established'));
      }
    }
    return socket;
  };
  return agent;
}

function headerReader(headers: IncomingMessage['headers']): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** A transport with its own keep-alive agents (one per client). */
export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  let httpAgent: HttpAgent | undefined;
  let httpsAgent: HttpAgent | undefined;
  const agentFor = (secure: boolean) => (secure ? (httpsAgent ??= trackingAgent(true, options.ca)) : (httpAgent ??= trackingAgent(false, undefined)));
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;

  return (wire) =>
    new Promise<WireResponse>((resolve, reject) => {
      const secure = wire.url.protocol === 'https:';
      const headers: Record<string, string> = { ...wire.headers };
      if (wire.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(wire.body));
      let socket: TrackedSocket | undefined;
      let response: IncomingMessage | undefined;
      let connectTimer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const stage = (): WireStage => socket?.[STAGE] ?? (socket ? 'established' : 'connecting');

      const fail = (error: unknown) => {
        clearTimeout(connectTimer);
        if (settled) return;
        settled = true;
        wire.signal.removeEventListener('abort', onAbort);
        if (wire.signal.aborted) return reject(abortError(wire.signal));
        const code = (error as { code?: unknown } | null)?.code;
        reject(new WireFailure(typeof code === 'string' ? code : undefined, stage(), { cause: error }));
      };
      // Abort: the body first (destroying only the request would end a streaming body as if it were complete).
      const onAbort = () => {
        const error = abortError(wire.signal);
        response?.destroy(error);
        req.destroy(error);
      };

      const send = secure ? httpsRequest : httpRequest;
      let req: ClientRequest;
      try {
        req = send(wire.url, { method: wire.method, headers, agent: agentFor(secure) });
      } catch (error) {
        return fail(error);
      }
      req.on('error', fail);
      req.on('socket', (assigned: Socket) => {
        socket = assigned as TrackedSocket;
        // A reused kept-alive socket is established; so is one this transport did not create (no mark).
        if (req.reusedSocket || socket[STAGE] === 'established') return;
        connectTimer = setTimeout(() => {
          if (stage() === 'established' || settled) return;
          req.destroy(Object.assign(new Error(`connection not established within ${connectTimeoutMs} ms`), { code: 'CONNECT_TIMEOUT' }));
        }, connectTimeoutMs);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      req.on('response', (res: IncomingMessage) => {
        clearTimeout(connectTimer);
        response = res;
        if (settled) return void res.destroy();
        settled = true;
        // A body error after this point is the body reader's to see (as the stream's error).
        req.off('error', fail);
        req.on('error', () => undefined);
        res.once('close', () => wire.signal.removeEventListener('abort', onAbort));
        resolve({ status: res.statusCode ?? 0, headers: headerReader(res.headers), rawHeaders: res.headers, body: res });
      });
      if (wire.signal.aborted) return onAbort();
      wire.signal.addEventListener('abort', onAbort, { once: true });
      req.end(wire.body);
    });
}

/**
 * Lets go of a body nobody will read (a redirect's): a body that has arrived whole is read out, so its kept-alive
 * connection goes back to the pool (resolving once it has, so the next request can reuse it); one still arriving is
 * destroyed with its connection, which otherwise stays open receiving whatever the server keeps sending.
 */
export function discardBody(body: Readable): Promise<void> {
  body.on('error', () => undefined);
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  if ((body as Partial<IncomingMessage>).complete !== true) {
    body.destroy();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    body.once('end', resolve);
    body.once('close', resolve);
    body.resume();
  });
}

/**
 * An answer read as text is read up to this much: far above any catalog page, schema or execution status, and a bound
 * on what a broken server or proxy can make the app hold in memory within a request's timeout.
 */
export const ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** The answer's body went past {@link ANSWER_MAX_BYTES}; its connection was destroyed. */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
  }
}

/** A body read to the end as text (UTF-8, a leading BOM dropped, as fetch's `text()` does), at most `maxBytes`. */
export async function readText(body: Readable, maxBytes = ANSWER_MAX_BYTES): Promise<string> {
  const declared = Number((body as Partial<IncomingMessage>).headers?.['content-length']);
  if (declared > maxBytes) {
    body.destroy();
    throw new AnswerTooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
