import type { Journal } from '../journal/journal';

// After a start, the first new submission goes before the work recovery found (issue 34 #3: kill -9, then the same
// command, to its first new submit). Results of executions that were in flight at the kill are downloaded and saved
// (which loads ExifTool's modules and starts its Perl: ≈ 0.4 s of the event loop), and the full temp sweep reads
// every item of the batch: all on the same event loop and cores as the first submission's encode and POST. Those
// wait until a submission made after this start has been answered, at most FIRST_SUBMIT_WAIT_MS, and not at all
// when nothing is to be sent or new submissions are held for balance evidence (then nothing would go first).
// Paid-once is untouched: only paid results wait, and waiting sends nothing; every recovery step that decides about
// money (answer-lost, the done ledger, placements) has run before.

/** How long recovered downloads and the full temp sweep wait for the first submission's answer, at most. */
export const FIRST_SUBMIT_WAIT_MS = 5_000;

export interface StartOrder {
  /** Whether the work recovery found may run now (stays true once it is). */
  open(): boolean;
  /** The engine stops: no more looking. */
  stop(): void;
}

export interface StartOrderDeps {
  journal: Pick<Journal, 'batchIdsInState' | 'countByState'>;
  /** Submissions answered so far (accepted or lost), this engine's counter. */
  answered: () => number;
  /** New submissions are held (balance evidence). */
  holding: () => boolean;
  /** Schedules a scheduling pass: called once, when it opens. */
  kick: () => void;
  now?: () => number;
  waitMs?: number;
}

/** Taken at the start of a start (before recovery): what is pending now is what the first submission comes from. */
export function startOrder({ journal, answered, holding, kick, now = Date.now, waitMs = FIRST_SUBMIT_WAIT_MS }: StartOrderDeps): StartOrder {
  const answeredAtStart = answered();
  const until = now() + waitMs;
  // Read from the per-state counters (one row per batch and state), never the batch's items.
  let opened = journal.batchIdsInState('running').every((id) => (journal.countByState(id).pending ?? 0) === 0);
  const open = (): boolean => {
    if (!opened && (answered() > answeredAtStart || holding() || now() >= until)) opened = true;
    return opened;
  };
  // Looked at every 50 ms until open, then one scheduling pass starts what waited.
  let timer: NodeJS.Timeout | null = null;
  const look = () => {
    timer = null;
    if (open()) kick();
    else timer = setTimeout(look, 50).unref();
  };
  if (!opened) timer = setTimeout(look, 50).unref();
  return {
    open,
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
