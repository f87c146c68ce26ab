import { WebSocket, WebSocketServer } from 'ws';
import type { InvokeDispatcher } from '../../shared/ipc/dispatch';
import type { Logger } from '../core/log';
import { DEFAULT_BROWSER_HOST_LIMITS, type BrowserHostLimits } from './limits';

type ChannelLimits = Pick<BrowserHostLimits, 'maxMessageBytes' | 'maxInFlightPerClient' | 'maxOutboundBufferBytes' | 'idleTimeoutMs'>;

export interface WsChannel {
  readonly server: WebSocketServer;
  /** Sends an event envelope `{event, payload}` to every connected renderer. */
  broadcast(event: string, payload: unknown): void;
  readonly clientCount: number;
  close(): Promise<void>;
}

interface InvokeMessage {
  id: string | number;
  channel: string;
  args?: unknown;
}

function parseInvoke(data: string): InvokeMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { id, channel } = message as Record<string, unknown>;
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof channel !== 'string') return null;
  return message as InvokeMessage;
}

/**
 * The browser host's half of the bridge: `{id, channel, args}` in, `{id, result}` out (result is the same
 * IpcResult envelope Electron's preload returns, produced by the same dispatcher), and `{event, payload}` pushed to
 * every client. Authentication happens before the upgrade (see browser-host.ts); this only speaks the protocol.
 */
export function createWsChannel(dispatch: InvokeDispatcher, logger: Logger, limits: ChannelLimits = DEFAULT_BROWSER_HOST_LIMITS): WsChannel {
  // Larger messages close the socket with 1009 (ws enforces maxPayload while reading, before buffering them whole).
  const server = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  /**
   * Backpressure: a client that does not read its replies and events makes the host queue them in memory. Past the
   * limit it is disconnected with 1008 and a reason it can show, instead of the host growing without bound.
   */
  const send = (socket: WebSocket, data: string) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount + data.length > limits.maxOutboundBufferBytes) {
      logger.warn('websocket client not reading; disconnected', { buffered: socket.bufferedAmount });
      socket.close(1008, 'outbound buffer full: the page stopped reading');
      return;
    }
    socket.send(data);
  };
  const alive = new WeakMap<WebSocket, boolean>();
  // Pings keep a healthy idle page's connection alive past the idle timeout; a page that no longer answers is closed.
  const heartbeat = setInterval(() => {
    for (const client of server.clients) {
      if (alive.get(client) === false) {
        client.terminate();
        continue;
      }
      alive.set(client, false);
      client.ping();
    }
  }, Math.max(1000, Math.floor(limits.idleTimeoutMs / 2)));
  heartbeat.unref();
  server.on('connection', (socket) => {
    let inFlight = 0;
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('message', (raw, isBinary) => {
      alive.set(socket, true);
      const message = isBinary ? null : parseInvoke(raw.toString());
      if (!message) {
        send(socket, JSON.stringify({ id: null, result: { ok: false, code: 'bad_request', message: 'Expected {id, channel, args}.' } }));
        return;
      }
      if (inFlight >= limits.maxInFlightPerClient) {
        send(socket, JSON.stringify({
          id: message.id,
          result: { ok: false, code: 'rate_limited', message: `Too many requests at once (limit ${limits.maxInFlightPerClient}); wait for the answers.` },
        }));
        return;
      }
      inFlight += 1;
      void dispatch(message.channel, message.args).then((result) => {
        inFlight -= 1;
        send(socket, JSON.stringify({ id: message.id, result }));
      });
    });
    socket.on('error', (error) => logger.debug('websocket error', { error: error.message }));
  });
  server.on('close', () => clearInterval(heartbeat));
  return {
    server,
    broadcast(event, payload) {
      const data = JSON.stringify({ event, payload });
      for (const client of server.clients) send(client, data);
    },
    get clientCount() {
      return server.clients.size;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const client of server.clients) client.terminate();
        server.close(() => done());
      }),
  };
}
