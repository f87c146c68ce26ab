// One gate every service request passes: a token bucket (global request-rate cap, so a 10,000-item batch cannot
// hammer the service), a shared back-off honouring Retry-After (the rate limit is per key, not per request), and an
// offline latch: after consecutive network failures nothing is sent until a probe gets through.
//
// Closing the gate (the engine stops) is final for everyone waiting: every wait — a back-off, the rate, the offline
// latch, a place in the queue — ends at once and acquire() rejects with GateClosed, so nothing that was waiting for
// its turn sends a request (a paid submission) after the stop returned. start() opens it again.

import { BACKOFF, backoffDelay, startingAt } from '../service/retry';

export interface RequestGateOptions {
  requestsPerSecond: number;
  burst?: number;
  now?: () => number;
  /** Consecutive network failures that mean "offline". */
  offlineAfter?: number;
  /** Called while offline to find out whether the service is reachable again. */
  probe: () => Promise<void>;
  onOfflineChange?: (offline: boolean) => void;
  /** A probe has been scheduled for `atMs` (what "next try in 8 s" shows). */
  onProbeScheduled?: (atMs: number) => void;
  /** First wait before probing (doubles up to 8 s). */
  probeDelayMs?: number;
}

/** acquire() after close(), or while waiting when close() came: the request must not be sent. */
export class GateClosed extends Error {
  constructor(message = 'the engine is stopping: the request was not sent') {
    super(message);
    this.name = 'GateClosed';
  }
}

/** A wait that close() (or the caller's signal) cuts short. */
interface Sleeper {
  wake: () => void;
}

export class RequestGate {
  private tokens: number;
  private last: number;
  private notBefore = 0;
  private networkFailures = 0;
  private offlineWaiters: (() => void)[] = [];
  private probing = false;
  private closed = false;
  private wakeProbe: (() => void) | null = null;
  private readonly sleepers = new Set<Sleeper>();
  offline = false;
  /** When the latch closed (epoch ms of `now`), and when the next probe goes out; null while online. */
  offlineSince: number | null = null;
  nextProbeAt: number | null = null;
  private readonly now: () => number;
  private readonly burst: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: RequestGateOptions) {
    this.now = options.now ?? Date.now;
    this.burst = Math.max(1, options.burst ?? Math.ceil(options.requestsPerSecond));
    this.tokens = this.burst;
    this.last = this.now();
  }

  /**
   * Resolves when a request may be sent. Callers are served in arrival order. Rejects with GateClosed once the gate
   * is closed (also while waiting), and with the signal's reason once `signal` fires (a download cut by a stop).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new GateClosed());
    const turn = this.queue.then(() => this.waitTurn(signal));
    this.queue = turn.catch(() => undefined);
    turn.catch(() => undefined); // the caller may have left already (its signal fired): it sees abandoned() instead
    return signal ? Promise.race([turn, abandoned(signal)]) : turn;
  }

  private async waitTurn(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (this.closed) throw new GateClosed();
      signal?.throwIfAborted();
      if (this.offline) {
        await new Promise<void>((resolve) => this.offlineWaiters.push(resolve));
        continue;
      }
      const now = this.now();
      if (now < this.notBefore) {
        await this.sleep(this.notBefore - now, signal);
        continue;
      }
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.options.requestsPerSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) / this.options.requestsPerSecond) * 1000), signal);
    }
  }

  /** A wait that close() or `signal` ends early (the loop above then sees why). */
  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        wake: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          signal?.removeEventListener('abort', sleeper.wake);
          resolve();
        },
      };
      const timer = setTimeout(sleeper.wake, Math.max(0, ms));
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.wake, { once: true });
    });
  }

  /** The service said "wait": nobody sends before then. */
  backOff(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.now() + ms);
  }

  succeeded(): void {
    this.networkFailures = 0;
  }

  networkFailed(): void {
    this.networkFailures += 1;
    if (!this.offline && this.networkFailures >= (this.options.offlineAfter ?? 3)) {
      this.offline = true;
      this.offlineSince = this.now();
      this.options.onOfflineChange?.(true);
      void this.probeLoop();
    }
  }

  private async probeLoop(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    // Probes back off to one every 8 s (BACKOFF.offlineProbe): cheap for the service, and a restored service is
    // noticed within seconds.
    const schedule = this.options.probeDelayMs === undefined ? BACKOFF.offlineProbe : startingAt(BACKOFF.offlineProbe, this.options.probeDelayMs);
    let failedProbes = 0;
    let delay = backoffDelay(schedule, failedProbes);
    while (this.offline && !this.closed) {
      this.nextProbeAt = this.now() + delay;
      this.options.onProbeScheduled?.(this.nextProbeAt);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wakeProbe = () => { clearTimeout(timer); resolve(); };
      });
      this.wakeProbe = null;
      if (this.closed) break;
      this.nextProbeAt = null;
      try {
        await this.options.probe();
        // Closed while the probe was out (the engine stopped): nobody resumes anything now — the next start clears
        // outage pauses itself — and the journal may be closing.
        if (this.closed) break;
        this.offline = false;
        this.offlineSince = null;
        this.networkFailures = 0;
        this.options.onOfflineChange?.(false);
      } catch {
        delay = backoffDelay(schedule, ++failedProbes);
      }
    }
    this.nextProbeAt = null;
    this.probing = false;
    const waiters = this.offlineWaiters;
    this.offlineWaiters = [];
    for (const wake of waiters) wake();
  }

  /** While offline: probe now instead of waiting (the user asked to try again). */
  probeNow(): void {
    this.wakeProbe?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Every waiter is let go and refused (GateClosed): nothing waiting sends. */
  close(): void {
    this.closed = true;
    this.wakeProbe?.();
    this.offline = false;
    const waiters = this.offlineWaiters;
    this.offlineWaiters = [];
    for (const wake of waiters) wake();
    for (const sleeper of [...this.sleepers]) sleeper.wake();
  }

  /** A stopped engine starting again: requests may go out once more (rate and back-off as they were). */
  reopen(): void {
    this.closed = false;
    this.networkFailures = 0;
    this.offlineSince = null;
  }
}

/** Rejects with the signal's reason once it fires (never resolves). */
function abandoned(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
