import type { Socket } from 'node:net';

/**
 * Connection slots of the browser host, in two pools. A socket starts unauthenticated and moves to the
 * authenticated pool the first time one of its requests (or its WebSocket upgrade) carries the token. Token-less
 * sockets are bounded on their own and the oldest is dropped when a new one arrives, so a flood of them (64
 * sockets trickling a body after their 401 once made every request 503 for 600 s) only ever pushes out its own
 * kind: it can neither fill the authenticated slots nor keep a new connection from reaching its token check.
 */
export interface ConnectionSlots {
  /** A new socket: false when the authenticated pool is full (the caller answers 503 and closes it). */
  admit(socket: Socket): boolean;
  /** The socket carried the token. */
  authenticated(socket: Socket): void;
  readonly counts: { authenticated: number; unauthenticated: number };
}

export function createConnectionSlots(limits: { maxConnections: number; maxUnauthenticatedConnections: number }): ConnectionSlots {
  const pending = new Set<Socket>();
  const trusted = new Set<Socket>();
  return {
    admit(socket) {
      socket.once('close', () => {
        pending.delete(socket);
        trusted.delete(socket);
      });
      if (trusted.size >= limits.maxConnections) return false;
      pending.add(socket);
      if (pending.size > limits.maxUnauthenticatedConnections) {
        // Sets iterate in insertion order: the first is the oldest token-less socket.
        const oldest = pending.values().next().value;
        if (oldest && oldest !== socket) {
          pending.delete(oldest);
          oldest.destroy();
        }
      }
      return true;
    },
    authenticated(socket) {
      if (!pending.delete(socket)) return;
      trusted.add(socket);
    },
    get counts() {
      return { authenticated: trusted.size, unauthenticated: pending.size };
    },
  };
}
