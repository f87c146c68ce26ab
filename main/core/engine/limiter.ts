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
  /** A probe has been scheduled for `atMs` (what "next try in 8 s" shows). */
  onProbeScheduled?: (atMs: number) => void;
  /** First wait before probing (doubles up to 8 s). */
  probeDelayMs?: number;
}

/** Probes back off to one every 8 s: cheap for the service, and a restored service is noticed within seconds. */
const MAX_PROBE_DELAY_MS = 8_000;

export class RequestGate {
  private tokens: number;
  private last: number;
  private notBefore = 0;
  private networkFailures = 0;
  private offlineWaiters: (() => void)[] = [];
  private probing = false;
  private closed = false;
  private wakeProbe: (() => void) | null = null;
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
      this.offlineSince = this.now();
      this.options.onOfflineChange?.(true);
      void this.probeLoop();
    }
  }

  private async probeLoop(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let delay = this.options.probeDelayMs ?? 1000;
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
        this.offline = false;
        this.offlineSince = null;
        this.networkFailures = 0;
        this.options.onOfflineChange?.(false);
      } catch {
        delay = Math.min(MAX_PROBE_DELAY_MS, delay * 2);
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

  close(): void {
    this.closed = true;
    this.wakeProbe?.();
    this.offline = false;
    const waiters = this.offlineWaiters;
    this.offlineWaiters = [];
    for (const wake of waiters) wake();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
