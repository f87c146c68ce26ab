import type { Api } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/contract-kit';
import type { BatchroomHost } from './host';
import { makeBridge } from './make-bridge';

// The browser host's bridge: the same `Api` as Electron's preload, carried over one WebSocket. Requests are
// `{id, channel, args}`, answers `{id, result}` (result: the IpcResult envelope), events `{event, payload}`.
// Validation happens in the host's dispatcher, exactly as in Electron's main process.

type Pending = (result: IpcResult<unknown>) => void;

// i18n-ignore: the technical detail behind "Details"; the sentence shown is lib's error.network, in the page's language.
const LOST: IpcResult<never> = { ok: false, code: 'network', message: 'The connection to Batchroom was lost. Is `batchroom ui` still running?' };

/** `ws://host/ws` (or `wss:`) for the page's origin; the token rides along when the page was opened with one. */
export function wsUrlFor(location: { protocol: string; host: string }, token?: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/**
 * Opens (and keeps re-opening, with backoff) a WebSocket to the browser host and returns the contract's `Api`.
 * Calls made while disconnected wait for the connection; calls in flight when it drops answer `network`.
 */
export function createWsBridge(url: string, token?: string | null): Api {
  const target = token && !url.includes('token=') ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retryMs = 250;

  const connect = () => {
    const ws = new WebSocket(target);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      for (const data of outbox.splice(0)) ws.send(data);
    };
    ws.onmessage = (message) => {
      let envelope: { id?: unknown; result?: IpcResult<unknown>; event?: unknown; payload?: unknown };
      try {
        envelope = JSON.parse(String(message.data)) as typeof envelope;
      } catch {
        return;
      }
      if (typeof envelope.event === 'string') {
        for (const listener of [...(listeners.get(envelope.event) ?? [])]) listener(envelope.payload);
      } else if (typeof envelope.id === 'number' && envelope.result) {
        pending.get(envelope.id)?.(envelope.result);
        pending.delete(envelope.id);
      }
    };
    ws.onclose = () => {
      socket = null;
      for (const settle of pending.values()) settle(LOST);
      pending.clear();
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  connect();

  const invoke = (channel: string, args: unknown) =>
    new Promise<IpcResult<unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      const data = JSON.stringify({ id, channel, args });
      if (socket?.readyState === WebSocket.OPEN) socket.send(data);
      else outbox.push(data);
    });

  const subscribe = (channel: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  return makeBridge(invoke, subscribe);
}

/** Uploads dropped files to the host, which stages them in its state dir and answers with their paths. */
export function createUploadingHost(baseUrl: string, token?: string | null): BatchroomHost & { kind: 'browser' } {
  const tokenQuery = token ? `&token=${encodeURIComponent(token)}` : '';
  return {
    kind: 'browser',
    async pathsForFiles(files) {
      const paths: string[] = [];
      // The whole drop is declared with each file, so the host refuses a drop over its limits at the first file.
      const drop = `&drop=${crypto.randomUUID()}&files=${files.length}&bytes=${files.reduce((sum, f) => sum + f.size, 0)}`;
      // One at a time: photos are large and the disk, not the socket, is the limit.
      for (const file of files) {
        const response = await fetch(`${baseUrl}/upload?name=${encodeURIComponent(file.name)}${drop}${tokenQuery}`, {
          method: 'POST',
          body: file,
          credentials: 'same-origin',
        });
        const body = (await response.json().catch(() => ({}))) as { path?: string; error?: string };
        // Only the facts (which file, what the host said): lib/drop.ts puts them in its sentence, in the page's language.
        if (!response.ok || !body.path) throw new Error(`${file.name}: ${body.error ?? `HTTP ${response.status}`}`);
        paths.push(body.path);
      }
      return paths;
    },
  };
}

/**
 * For the renderer's entry outside Electron: reads the token from the page URL (then removes it from the address
 * bar and history; the HttpOnly cookie set with the page keeps authenticating), sets `window.batchroomHost`, and
 * returns the bridge.
 */
export function createBrowserBridgeFromLocation(): Api {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token');
  if (token) {
    params.delete('token');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}${window.location.hash}`);
  }
  window.batchroomHost = createUploadingHost(window.location.origin, token);
  return createWsBridge(wsUrlFor(window.location, token), token);
}
