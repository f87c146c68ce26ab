import { BACKOFF, backoffDelay } from '../service/retry';
import type { RunnerCore } from './runner-core';

// Studio mode: results whose placement the ledger could not decide (save-errors.ts PlacementUndecided: unreachable
// past this instance's lease, a query that failed). Each item stays `downloading` with its result kept and is asked
// about again on its own back-off (2 s doubling to 30 s) — parked here, not waiting inside a download slot, so a long
// database outage never holds up the downloads of other results (which could expire at the service meanwhile).

export class LedgerWait {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly attempts = new Map<string, number>();

  constructor(private readonly core: RunnerCore, private readonly enqueue: (itemId: string) => void) {}

  get size(): number {
    return this.timers.size;
  }

  park(itemId: string, reason: string): void {
    const attempt = this.attempts.get(itemId) ?? 0;
    this.attempts.set(itemId, attempt + 1);
    if (attempt === 0) this.core.o.logger.warn('result kept, not saved yet: waiting for the studio ledger', { itemId, reason });
    clearTimeout(this.timers.get(itemId));
    const timer = setTimeout(() => {
      this.timers.delete(itemId);
      if (this.core.isStopping()) return;
      this.enqueue(itemId);
      this.core.kick();
    }, backoffDelay(BACKOFF.studioConnect, attempt));
    timer.unref();
    this.timers.set(itemId, timer);
  }

  /** The item's save ended (saved, skipped, failed): its back-off starts over next time. */
  settled(itemId: string): void {
    this.attempts.delete(itemId);
  }

  /** A stop: nothing is asked again (the item is `downloading` in the journal: the next start's recovery has it). */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.attempts.clear();
  }
}
