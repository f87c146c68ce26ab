import { WebSocket, WebSocketServer } from 'ws';
import type { InvokeDispatcher } from '../../shared/ipc/dispatch';
import type { Logger } from '../core/log';

/** Invoke requests are small JSON objects; anything bigger is a mistake or an attack. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

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
export function createWsChannel(dispatch: InvokeDispatcher, logger: Logger): WsChannel {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('connection', (socket) => {
    socket.on('message', (raw, isBinary) => {
      const message = isBinary ? null : parseInvoke(raw.toString());
      if (!message) {
        socket.send(JSON.stringify({ id: null, result: { ok: false, code: 'bad_request', message: 'Expected {id, channel, args}.' } }));
        return;
      }
      void dispatch(message.channel, message.args).then((result) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ id: message.id, result }));
      });
    });
    socket.on('error', (error) => logger.debug('websocket error', { error: error.message }));
  });
  return {
    server,
    broadcast(event, payload) {
      const data = JSON.stringify({ event, payload });
      for (const client of server.clients) if (client.readyState === WebSocket.OPEN) client.send(data);
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
