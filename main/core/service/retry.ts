import type { Logger } from '../log';
import { ServiceError } from './errors';

export interface RetryOptions {
  /** Total tries including the first (default 4). */
  attempts?: number;
  /** First backoff ceiling; doubles per retry (default 300 ms). */
  baseDelayMs?: number;
  /** Largest single backoff ceiling (default 8 s). */
  maxDelayMs?: number;
  /** No retry starts after this much time since the first try (default 30 s). */
  totalMs?: number;
  /** Test seams: the jitter source and the clock's sleep. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type RetryPolicy = Required<RetryOptions>;

/**
 * A doubling wait: `firstMs` before the first retry (`retry` 0), twice that before the next, never more than `maxMs`;
 * `maxDoublings` stops the doubling earlier (a wait configured smaller than the default then stays small).
 * Deterministic: the service requests add their own jitter (withRetries).
 */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  maxDoublings?: number;
}

export function backoffDelay(policy: Backoff, retry: number): number {
  const doublings = Math.min(Math.max(0, Math.floor(retry)), policy.maxDoublings ?? 60);
  return Math.min(policy.maxMs, policy.firstMs * 2 ** doublings);
}

/** The same policy with another first wait (a configured or test interval); its cap and doubling limit are kept. */
export function startingAt(policy: Backoff, firstMs: number): Backoff {
  return { ...policy, firstMs };
}

/**
 * Every doubling wait of the core, named by what it waits for: one place to read and tune them. A service-given
 * Retry-After always wins over these where the caller has one.
 */
export const BACKOFF = {
  /** The service refused a submit for load (429/503, network): nobody sends before this (engine gate). */
  submitRefused: { firstMs: 500, maxMs: 10_000 },
  /** A status request for a running execution failed: that execution is looked at again after this. */
  statusFailed: { firstMs: 500, maxMs: 10_000 },
  /** A result download failed in a way worth another try. */
  download: { firstMs: 600, maxMs: 5_000 },
  /** The studio ledger did not record an accepted execution id yet (the local journal already has it). */
  recordAccepted: { firstMs: 250, maxMs: 5_000 },
  /** Offline: the next probe of the service (one every 8 s at most: cheap, and a service back is seen in seconds). */
  offlineProbe: { firstMs: 1_000, maxMs: 8_000 },
  /** A queued execution with no timing known yet: looked at less and less often. */
  idlePoll: { firstMs: 500, maxMs: 5_000 },
  /** Balance evidence: the two reads disagreed (or failed); twice the 3 s settle, then four times (3 tries in all). */
  balanceReread: { firstMs: 6_000, maxMs: Number.POSITIVE_INFINITY },
  /** Studio mode: the shared database cannot be reached yet. */
  studioConnect: { firstMs: 2_000, maxMs: 30_000, maxDoublings: 4 },
  /** A hot folder's batch was refused by the engine (offline, out of credits, output not writable). */
  hotFolderRefused: { firstMs: 30_000, maxMs: 600_000 },
} as const satisfies Record<string, Backoff>;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelledError(): ServiceError {
  return new ServiceError('cancelled', 'The request was cancelled.');
}

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    attempts: Math.max(1, Math.floor(options.attempts ?? 4)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 300),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 8_000),
    totalMs: Math.max(0, options.totalMs ?? 30_000),
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
  };
}

/** What one try came to: a value, an error worth another try (maybe after a service-given delay), or a final error. */
export type TryResult<T> =
  | { done: T }
  | { retry: ServiceError; retryAfterMs?: number }
  | { fail: ServiceError };

/**
 * Full-jitter exponential backoff (a random wait in [0, min(max, base·2^n)]) so that many clients that failed
 * together do not retry together. A service-given Retry-After is a floor, not a suggestion. Gives up with the last
 * error when tries or the time budget run out, including when the wait the service asks for would exceed it.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  context: { signal?: AbortSignal; log: Logger; label: string },
  attempt: (index: number) => Promise<TryResult<T>>,
): Promise<T> {
  const started = Date.now();
  for (let index = 0; ; index++) {
    if (context.signal?.aborted) throw cancelledError();
    const result = await attempt(index);
    if ('done' in result) return result.done;
    if ('fail' in result) throw result.fail;
    const error = result.retry;
    if (index + 1 >= policy.attempts) throw error;
    const ceiling = backoffDelay({ firstMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, index);
    const jitter = Math.floor(policy.random() * ceiling);
    const delay = result.retryAfterMs !== undefined ? result.retryAfterMs + Math.floor(policy.random() * policy.baseDelayMs) : jitter;
    if (Date.now() - started + delay > policy.totalMs) throw error;
    context.log.warn('retrying a service request', {
      call: context.label, attempt: index + 2, of: policy.attempts, delayMs: delay, because: error.code, status: error.status,
    });
    await policy.sleep(delay, context.signal);
  }
}
