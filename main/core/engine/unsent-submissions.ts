import { finishedWithin } from '../finished-within';
import type { Logger } from '../log';
import type { SendTicket } from './runner-core';

/** Waits until every one of `work` has settled, or `ms` has passed. */
export async function settledWithin(work: readonly Promise<unknown>[], ms: number): Promise<void> {
  if (work.length > 0) await finishedWithin(Promise.allSettled(work), ms);
}

interface Unsent {
  wait: Promise<boolean>;
  ticket: SendTicket;
  putBack: () => void;
}

/**
 * Submissions on their way to being sent (waiting for their turn at the gate or for the studio ledger): a
 * non-graceful stop waits a bounded moment for them to put their items back, then puts back itself whatever still
 * waits, while the journal is open — left `submitting`, the next start would call it "may have been charged".
 */
export class UnsentSubmissions {
  private readonly unsent = new Map<string, Unsent>();

  /** Tracks one submission until `wait` settles; returns `wait`. */
  track(itemId: string, ticket: SendTicket, putBack: () => void, wait: Promise<boolean>): Promise<boolean> {
    const entry = { wait, ticket, putBack };
    this.unsent.set(itemId, entry);
    void wait.catch(() => undefined).finally(() => {
      if (this.unsent.get(itemId) === entry) this.unsent.delete(itemId);
    });
    return wait;
  }

  /** Waits at most `ms` for the tracked submissions to settle. */
  settle(ms: number): Promise<void> {
    return settledWithin([...this.unsent.values()].map((u) => u.wait), ms);
  }

  /**
   * Puts back every submission still waiting that has not started sending. Each sees `abandoned` when its wait ends,
   * and neither writes nor sends.
   */
  abandonRest(logger: Logger): void {
    for (const [itemId, unsent] of this.unsent) {
      if (unsent.ticket.sending) continue;
      unsent.ticket.abandoned = true;
      try {
        unsent.putBack();
      } catch (error) {
        logger.warn('submission not put back at the stop', { itemId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    this.unsent.clear();
  }
}
