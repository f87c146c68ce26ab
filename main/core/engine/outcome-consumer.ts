import type { OutcomeRecord, OutcomeStream } from '../journal/outbox';
import { isJournalClosed } from '../journal/closed';

// Reads the outcome outbox for one named consumer: every outcome once, in seq order, from where that consumer
// stopped last time (its cursor is journalled after each outcome it handled). A consumer that restarts gets at most
// the outcome it was handling when it stopped again, never a gap — so handlers must tolerate seeing one twice.

export interface OutcomeConsumer {
  /** Resolves once everything recorded so far has been handled. */
  drained(): Promise<void>;
  stop(): void;
}

export interface ConsumeOptions {
  /** Where a consumer never seen before starts: only outcomes from now on (default), or the whole outbox. */
  from?: 'now' | 'start';
  /** A handler that throws is reported here and the outcome counts as handled (it is not retried forever); null: reading failed. */
  onError?: (error: unknown, outcome: OutcomeRecord | null) => void;
}

export function consumeOutcomes(stream: OutcomeStream, consumer: string, handle: (outcome: OutcomeRecord) => void | Promise<void>,
  options: ConsumeOptions = {}): OutcomeConsumer {
  let cursor = stream.outcomeCursor(consumer) ?? (options.from === 'start' ? 0 : stream.lastOutcomeSeq());
  stream.saveOutcomeCursor(consumer, cursor);
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;

  const pump = async (): Promise<void> => {
    do {
      again = false;
      for (let page = stream.outcomesAfter(cursor); page.length > 0 && !stopped; page = stream.outcomesAfter(cursor)) {
        for (const outcome of page) {
          if (stopped) return;
          try {
            await handle(outcome);
          } catch (error) {
            // The journal closed under the handler (the host is quitting): the outcome is handled next time.
            if (isJournalClosed(error)) return;
            options.onError?.(error, outcome);
          }
          cursor = outcome.seq;
          stream.saveOutcomeCursor(consumer, cursor);
        }
      }
    } while (again && !stopped);
  };
  const wake = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) { again = true; return running; }
    // Not inside the journal write that announced the outcome: handlers run on a later turn.
    running = new Promise<void>((resolve) => setImmediate(resolve)).then(pump)
      // The journal closed under a pending wake-up (the host is quitting): the cursor says where to go on next time.
      .catch((error: unknown) => { if (!stopped && !isJournalClosed(error)) options.onError?.(error, null); })
      .finally(() => { running = null; });
    return running;
  };
  const unsubscribe = stream.onOutcome(() => void wake());
  void wake();
  return {
    async drained() {
      while (!stopped && (running || stream.lastOutcomeSeq() > cursor)) await (running ?? wake());
    },
    stop() {
      stopped = true;
      unsubscribe();
    },
  };
}
