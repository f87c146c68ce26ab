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
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** index);
    const jitter = Math.floor(policy.random() * ceiling);
    const delay = result.retryAfterMs !== undefined ? result.retryAfterMs + Math.floor(policy.random() * policy.baseDelayMs) : jitter;
    if (Date.now() - started + delay > policy.totalMs) throw error;
    context.log.warn('retrying a service request', {
      call: context.label, attempt: index + 2, of: policy.attempts, delayMs: delay, because: error.code, status: error.status,
    });
    await policy.sleep(delay, context.signal);
  }
}
