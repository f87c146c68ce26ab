/**
 * The browser host is meant for NAS boxes and servers, so every resource a client can make it hold is bounded.
 * Each limit answers with a clear error (see docs/security.md, "Limits", for the table of defaults).
 */
export interface BrowserHostLimits {
  /**
   * Open TCP connections that have shown the token (HTTP and WebSocket together); more are answered 503 and closed.
   */
  maxConnections: number;
  /**
   * Connections that have not (yet) shown the token, bounded apart so they can never take the slots above; past it
   * the oldest is dropped (connection-slots.ts).
   */
  maxUnauthenticatedConnections: number;
  /** Time to receive a request's headers (slowloris); then 408 and closed. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, uploads included; then 408 and closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive HTTP connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic at all (HTTP or WebSocket without pings) is closed after this. */
  idleTimeoutMs: number;
  /** Request header bytes; larger is answered 431. */
  maxHeaderBytes: number;
  /** One uploaded file (413). */
  maxUploadFileBytes: number;
  /** Photos one drop (or one file pick) may upload (413, refused at the first file when the page declares more). */
  maxDropFiles: number;
  /** Bytes one drop may upload (413). */
  maxDropBytes: number;
  /** Files staged at once, all batches together (507 until old uploads are swept). */
  maxStagedFiles: number;
  /** Bytes staged at once, all batches together (507). */
  maxStagedBytes: number;
  /** One WebSocket message from the client; larger closes the socket with 1009 "message too big". */
  maxMessageBytes: number;
  /** Invokes one client may have unanswered at once; more are refused `rate_limited`. */
  maxInFlightPerClient: number;
  /** Bytes queued for one client that is not reading; beyond it the socket is closed with 1008. */
  maxOutboundBufferBytes: number;
}

export const DEFAULT_BROWSER_HOST_LIMITS: Readonly<BrowserHostLimits> = {
  maxConnections: 64,
  maxUnauthenticatedConnections: 32,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10 * 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 2 * 60_000,
  maxHeaderBytes: 16 * 1024,
  maxUploadFileBytes: 512 * 1024 * 1024,
  maxDropFiles: 10_000,
  maxDropBytes: 25 * 1024 * 1024 * 1024,
  maxStagedFiles: 20_000,
  maxStagedBytes: 50 * 1024 * 1024 * 1024,
  maxMessageBytes: 256 * 1024,
  maxInFlightPerClient: 32,
  maxOutboundBufferBytes: 16 * 1024 * 1024,
};

export function browserHostLimits(overrides: Partial<BrowserHostLimits> = {}): BrowserHostLimits {
  return { ...DEFAULT_BROWSER_HOST_LIMITS, ...overrides };
}
