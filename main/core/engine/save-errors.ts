import type { OutputProblem } from '../images/output-health';

// How a save ends when it does not end saved (saver.ts throws them, download-results.ts decides what each means).

export class DownloadRetry extends Error {}
/** The service answered "not found / gone" for a result URL: expired, or lost with its execution. */
export class ResultUrlGone extends DownloadRetry {}
/** A result that cannot be written for a reason of its own (no free name, a file in the way): the item fails. */
export class SaveFailure extends Error {}
/**
 * The save was given up because its signal fired (the batch was cancelled, or the engine stops without waiting): its
 * temp file is removed and nothing is recorded against the item, which stays `downloading` — the paid result is
 * downloaded again later, never resubmitted.
 */
export class SaveAbandoned extends Error {}

/**
 * Studio: right before its final name, the ledger said another instance owns the photo now (it took it over while
 * this one was paused past its lease) and saves the result itself: nothing is written here, the item ends skipped.
 */
export class PlacementWithdrawn extends Error {}

/**
 * Studio: the ledger could not say whether the photo is still this instance's (unreachable past the lease, an
 * error): nothing is written, the item stays `downloading` with its result kept, and is saved once the ledger answers.
 */
export class PlacementUndecided extends Error {}

/**
 * The output folder refused a write (full, over quota, read-only, no permission, I/O error, not there): the batch
 * pauses with code `output-unwritable` and this message; the item stays `downloading` (paid, execution known), its
 * bytes kept in the result cache when it could take them, and it is saved once the folder takes writes again.
 */
export class OutputUnwritable extends Error {
  constructor(readonly problem: OutputProblem, readonly cacheProblem: string | null, options?: { cause?: unknown }) {
    super(cacheProblem
      ? `${problem.message} The paid results could not be kept meanwhile: ${cacheProblem}; they are downloaded again while the service keeps them.`
      : problem.message, options);
    this.name = 'OutputUnwritable';
  }
}

/** What one save learned on the way (said in the pause message). */
export interface SaveNotes {
  /** Why the result cache could not keep a result, when it could not. */
  cacheProblem: string | null;
}
