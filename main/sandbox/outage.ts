import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A service outage as it happens in life: the service's state survives (executions keep progressing in memory), but
// connections are refused for a while. Requests already received are answered, their connections then close, idle
// keep-alive connections close at once, and the listening socket is closed so new connections are refused
// (ECONNREFUSED) until the server listens again on the same port.

export interface OutageControl {
  /** Starts an outage of `ms` milliseconds (an outage already under way is extended). */
  begin(ms: number): void;
  /** True while connections are refused. */
  readonly active: boolean;
  /** Track a response so an outage can close its connection once it is answered. */
  track(res: ServerResponse): void;
  /** Cancels a pending relisten (sandbox shutdown). */
  close(): void;
}

export function createOutageControl(server: Server, port: number, host: string): OutageControl {
  const inFlight = new Set<ServerResponse>();
  let until = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const endAfterAnswer = (res: ServerResponse) => {
    // Headers not sent yet: answer with `Connection: close`. Already streaming: close once the answer is complete.
    if (!res.headersSent) res.shouldKeepAlive = false;
    const socket: Socket | null = res.socket;
    res.once('finish', () => socket?.end());
  };

  const relisten = () => {
    timer = null;
    if (closed) return;
    const wait = until - Date.now();
    if (wait > 0) {
      timer = setTimeout(relisten, wait);
      return;
    }
    server.listen(port, host);
  };

  return {
    get active() {
      return timer !== null;
    },
    track(res) {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      if (timer !== null) endAfterAnswer(res);
    },
    begin(ms) {
      until = Math.max(until, Date.now() + ms);
      if (timer !== null) return;
      // server.close() stops accepting at once and closes idle keep-alive connections; busy ones finish first.
      server.close();
      server.closeIdleConnections();
      for (const res of inFlight) endAfterAnswer(res);
      timer = setTimeout(relisten, ms);
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
