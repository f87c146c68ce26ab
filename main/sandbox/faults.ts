import type { FaultSettings } from './options';

// Fault decisions come from a counter-based hash of (seed, stream, n) rather than one shared generator: each kind of
// decision on each route has its own stream, so the n-th execute of a run meets the same fate whatever the order in
// which status polls and downloads interleave with it. Same seed, same sequence of requests per route → same faults.

function hash32(seed: number, text: string, n: number): number {
  // FNV-1a over the stream name, then a murmur3-style finaliser mixing in seed and counter.
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= Math.imul(n + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export type FaultKind =
  | 'latency'
  | 'dropBefore'
  | 'dropAfter'
  | 'serverError'
  | 'rateLimit'
  | 'malformedJson'
  | 'executionFailure'
  | 'slowDownload';

export class FaultInjector {
  private readonly counters = new Map<string, number>();
  private settings: FaultSettings;

  constructor(
    private readonly seed: number,
    initial: FaultSettings,
  ) {
    this.settings = initial;
  }

  get current(): FaultSettings {
    return this.settings;
  }

  set(next: FaultSettings): void {
    this.settings = next;
  }

  /** Uniform number in [0, 1) for the next decision of `stream`. */
  next(stream: string): number {
    const n = this.counters.get(stream) ?? 0;
    this.counters.set(stream, n + 1);
    return hash32(this.seed, stream, n) / 0x1_0000_0000;
  }

  /** True with the probability `rate`; always draws so a zero rate keeps later decisions aligned. */
  roll(kind: FaultKind, route: string, rate: number): boolean {
    const value = this.next(`${kind}:${route}`);
    return rate > 0 && value < rate;
  }

  /** Added latency for one response: latencyMs plus a seeded share of the jitter. */
  latencyFor(route: string): number {
    const { latencyMs, latencyJitterMs } = this.settings;
    const jitter = latencyJitterMs > 0 ? Math.floor(this.next(`latency:${route}`) * latencyJitterMs) : 0;
    return latencyMs + jitter;
  }

  /** Picks which 5xx status an injected server error uses (500, 502 or 503). */
  serverErrorStatus(route: string): 500 | 502 | 503 {
    const value = this.next(`serverErrorStatus:${route}`);
    return value < 1 / 3 ? 500 : value < 2 / 3 ? 502 : 503;
  }
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fff_ffff);
}
