// One gate every service request passes: a token bucket (global request-rate cap, so a 10,000-item batch cannot
// hammer the service), a shared back-off honouring Retry-After (the rate limit is per key, not per request), and an
// offline latch: after consecutive network failures nothing is sent until a probe gets through.

export interface RequestGateOptions {
  requestsPerSecond: number;
  burst?: number;
  now?: () => number;
  /** Consecutive network failures that mean "offline". */
  offlineAfter?: number;
  /** Called while offline to find out whether the service is reachable again. */
  probe: () => Promise<void>;
  onOfflineChange?: (offline: boolean) => void;
  /** First wait before probing (doubles up to 15 s). */
  probeDelayMs?: number;
}

export class RequestGate {
  private tokens: number;
  private last: number;
  private notBefore = 0;
  private networkFailures = 0;
  private offlineWaiters: (() => void)[] = [];
  private probing = false;
  private closed = false;
  offline = false;
  private readonly now: () => number;
  private readonly burst: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: RequestGateOptions) {
    this.now = options.now ?? Date.now;
    this.burst = Math.max(1, options.burst ?? Math.ceil(options.requestsPerSecond));
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Resolves when a request may be sent. Callers are served in arrival order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.waitTurn());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitTurn(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      if (this.offline) {
        await new Promise<void>((resolve) => this.offlineWaiters.push(resolve));
        continue;
      }
      const now = this.now();
      if (now < this.notBefore) {
        await sleep(this.notBefore - now);
        continue;
      }
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.options.requestsPerSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - this.tokens) / this.options.requestsPerSecond) * 1000));
    }
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
      this.options.onOfflineChange?.(true);
      void this.probeLoop();
    }
  }

  private async probeLoop(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let delay = this.options.probeDelayMs ?? 1000;
    while (this.offline && !this.closed) {
      await sleep(delay);
      try {
        await this.options.probe();
        this.offline = false;
        this.networkFailures = 0;
        this.options.onOfflineChange?.(false);
      } catch {
        delay = Math.min(15_000, delay * 2);
      }
    }
    this.probing = false;
    const waiters = this.offlineWaiters;
    this.offlineWaiters = [];
    for (const wake of waiters) wake();
  }

  close(): void {
    this.closed = true;
    this.offline = false;
    const waiters = this.offlineWaiters;
    this.offlineWaiters = [];
    for (const wake of waiters) wake();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
