import { isAppError } from '../../../shared/errors';
import type { ExecuteRequest } from '../../../shared/service/model';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { ExecuteOutcome } from '../service/types';
import type { ExecutionFollower } from './follow-execution';
import { nowMs } from './clock';
import { BACKOFF, backoffDelay } from '../service/retry';
import { addPhase } from './phase-times';
import { GateClosed } from './limiter';
import { isJournalClosed } from '../journal/closed';
import type { RunnerCore, SendTicket } from './runner-core';
import { announceAccepted, clearedToSubmit, notSent } from './submit-hooks';
import { lostEntryOf, updateWithLedger } from './done-record';
import { isClaimHeld } from '../journal/claims';
import { followingReason } from './claim-followers';

// Sending one encoded item to the service: the only place money is spent. The order of journal writes around the
// POST is what guarantees an item is never paid for twice without the user asking:
//   1. `submitting` is journalled and fsynced BEFORE the request leaves — a crash from there on makes the item
//      `unknown` at recovery, never `pending`, so it is not sent again automatically;
//   2. the execution id is journalled (fsynced, one transaction with the execution row and the batch's spend) the
//      moment the answer arrives — from then on recovery polls it instead;
//   (both fsyncs are journal.whenDurable(): off the event loop and shared by the submissions waiting together,
//   awaited before the request leaves and before anything more is done for the accepted item — durable-sync.ts)
//   3. an answer that was lost after the body was sent makes the item `unknown` as well.
// An error thrown by the client (rather than an `unknown` outcome) is an answered refusal or a request that never
// left: the payload goes back to the ready queue to retry, or the batch pauses (402, 401), or the item fails.
// A server error (5xx) is NOT retried automatically: the service received the request and did not say whether it
// started an execution, so sending it again is the user's call ("Retry failed"), never the engine's.
// Once the engine is stopping nothing more leaves: a submission still waiting for its turn at the gate (a back-off,
// the offline latch) or for the studio ledger puts its item back (`pending`, nothing spent) while the journal is
// still open — a request sent after stop() returned would be charged with nowhere left to journal its execution id.
// A non-graceful stop waits for that only so long (2 s): one still waiting then is put back by the stop itself, and
// its ticket tells it to neither write nor send. Every put-back gives the studio claim back too (notSent).

const RETRYABLE = new Set(['rate_limited', 'network', 'timeout', 'unavailable', 'conflict']);

export function submitItem(core: RunnerCore, follower: ExecutionFollower, itemId: string, images: Record<string, string>, batch: BatchRecord): void {
  const { journal } = core.o;
  const item = journal.getItem(itemId);
  if (!item || item.state !== 'encoding') return;
  if (batch.spec.exportOf) {
    // An export makes files from results already paid for: it never pays (a crash can leave one of its items pending).
    core.update(itemId, { event: 'cancel', reason: 'an export never sends a photo to the service: export it again', completedAt: core.o.now().toISOString() });
    return;
  }
  const cost = batch.creditCost;
  // Journalled (and fsynced) before the request leaves: a crash from here on makes the item `unknown`, never `pending`.
  // The same write claims the item's unit: one held open by another item (another batch got there first) is refused
  // and rolled back, and this item follows that claim instead — the one rule that keeps a photo paid for once.
  let durable: Promise<void>;
  try {
    core.update(itemId, { event: 'submit', attempts: item.attempts + 1, reason: null });
    // The fsync runs while the item waits for its turn at the gate; readyToSend awaits it before the request leaves.
    durable = journal.whenDurable();
    durable.catch(() => undefined); // awaited (and its failure handled) in readyToSend; an early put-back drops it
  } catch (error) {
    if (!isClaimHeld(error)) throw error;
    const owner = journal.getItem(error.claim.ownerItemId);
    core.update(itemId, { event: 'follow', reason: followingReason(error.claim, owner?.batchId ?? null) });
    core.kick();
    return;
  }
  follower.track({ ...item, state: 'submitting' }, batch, nowMs());
  core.credits.reserve(batch.id, cost);
  const ticket: SendTicket = { abandoned: false, sending: false };
  const putBack = () => { putBackNow(core, follower, itemId); void notSent(core, item, batch); };
  core.run(async () => {
    const request: ExecuteRequest = { images, ...batch.spec.parameters };
    try {
      if (!(await core.beforeSend(itemId, ticket, putBack, readyToSend(core, follower, item, batch, images, ticket, durable)))) return;
      core.stats.submits += 1;
      const sentAt = nowMs();
      const outcome: ExecuteOutcome = await core.o.client.execute(batch.workflow, request);
      addPhase(core.stats.phases, 'upload', nowMs() - sentAt);
      core.gate.succeeded();
      if (outcome.kind === 'accepted') {
        try {
          journal.recordAccepted(itemId, outcome.executionId, cost, core.o.now().toISOString(), 'accept', { sync: 'deferred' });
        } catch (error) {
          // Charged, and the journal closed under the answer: this log line is then the only record of its id.
          if (isJournalClosed(error)) core.o.logger.warn('execution accepted after the journal closed', { itemId, executionId: outcome.executionId });
          throw error;
        }
        try {
          await journal.whenDurable();
        } catch (error) {
          // The money is spent and the id committed (a killed process keeps it): only a power cut now could lose it.
          // Refusing the item here would be an illegal move on a charged item and leave its result unfetched: log,
          // and follow and save it as usual. New submissions wait meanwhile: every whenDurable() is refused until
          // the journal is checkpointed (durable-sync.ts), and the one before the POST puts its item back.
          core.o.logger.error('execution id committed but not fsynced (the disk refused it): following it anyway', {
            itemId, executionId: outcome.executionId, error: error instanceof Error ? error.message : String(error),
          });
        }
        await announceAccepted(core, item, batch, outcome.executionId);
        core.refreshBatch(batch.id);
        core.credits.charged(cost);
        core.o.onItem(journal.getItem(itemId)!);
        const flight = follower.get(itemId)!;
        flight.executionId = outcome.executionId;
        flight.acceptedAt = nowMs();
        // A result is coming: ExifTool starts while the service works, not when the first result is saved. Not once
        // the engine is stopping: nothing will save this result now, and nothing would end that ExifTool.
        if (!core.isStopping()) {
          follower.schedule(flight);
          core.o.resultMetadata?.warmUp();
        }
      } else {
        follower.forget(itemId);
        const at = core.o.now().toISOString();
        await updateWithLedger(core, itemId, {
          event: 'answer-lost', completedAt: at,
          reason: `the answer to the submission was lost (${outcome.reason}): it may have been charged. Not resubmitted automatically; resubmit explicitly if needed.`,
        }, lostEntryOf(item, batch, at));
        core.evidence.lost([itemId]);
      }
    } catch (error) {
      if (ticket.abandoned) return; // put back by the stop: nothing of this submission is written any more
      follower.forget(itemId);
      if (isJournalClosed(error)) throw error; // nothing more can be journalled: the next start sees it `submitting`
      await onSubmitError(core, item, images, batch, item.attempts + 1, error);
    } finally {
      core.credits.release(batch.id, cost);
      core.kick();
    }
  });
}

/**
 * The gate's turn, then the studio ledger's go-ahead: false when the item went back instead (nothing was sent). The
 * turn comes first so that a stop while waiting for it (a back-off, the offline latch) leaves the claim untouched;
 * a claim marked and then not used (a stop meanwhile) is given back (notSent).
 */
async function readyToSend(core: RunnerCore, follower: ExecutionFollower, item: ItemRecord, batch: BatchRecord, images: Record<string, string>,
  ticket: SendTicket, durable: Promise<void>): Promise<boolean> {
  let turn = !core.isStopping();
  if (turn) {
    try {
      await core.gate.acquire();
    } catch (error) {
      if (!(error instanceof GateClosed)) throw error;
      turn = false;
    }
  }
  if (ticket.abandoned) return false;
  if (!turn || stoppedSending(core)) {
    putBackNow(core, follower, item.id);
    return false;
  }
  if (!(await clearedToSubmit(core, follower, { ...item, state: 'submitting' }, batch, images, ticket))) return false;
  // `submitting` on disk before the request leaves. A disk that refuses the fsync sends nothing: the item goes back
  // to the queue (its studio claim given back) and sending waits a while, as for an unreachable ledger — the photo
  // was never sent, so it must not end `failed`, and one EIO must not fail every submission in flight.
  try {
    await durable;
  } catch (error) {
    await notDurable(core, follower, item, batch, images, ticket, error);
    return false;
  }
  if (ticket.abandoned) {
    // The stop put the item back while the claim was being marked: its notSent may have come first, so again.
    void notSent(core, item, batch);
    return false;
  }
  if (stoppedSending(core)) {
    putBackNow(core, follower, item.id);
    await notSent(core, item, batch);
    return false;
  }
  // From here (synchronously on to the request) the stop can no longer put it back: the two never both happen.
  ticket.sending = true;
  return true;
}

/** `submitting` could not be fsynced: back to the queue with nothing sent, the claim given back, sending paused. */
async function notDurable(core: RunnerCore, follower: ExecutionFollower, item: ItemRecord, batch: BatchRecord, images: Record<string, string>,
  ticket: SendTicket, error: unknown): Promise<void> {
  if (ticket.abandoned) { await notSent(core, item, batch); return; } // put back by the stop meanwhile
  follower.forget(item.id);
  const message = error instanceof Error ? error.message : String(error);
  core.o.logger.error('journal fsync refused before a submission: nothing sent, sending paused', { itemId: item.id, error: message });
  core.gate.backOff(NOT_DURABLE_PAUSE_MS);
  core.update(item.id, { event: 'wait', reason: `waiting: the journal's disk refused to save it (${message}); nothing was sent` });
  await notSent(core, item, batch);
  if (ticket.abandoned || core.o.journal.getItem(item.id)?.state !== 'encoding') return; // put back, or cancelled meanwhile
  if (!core.isStopping()) core.ready.set(item.id, { batchId: batch.id, images, readyAt: nowMs() });
  else core.o.journal.updateItem(item.id, { event: 'requeue' });
}

/** How long sending waits after a refused fsync (the next attempt first tries the checkpoint that clears it). */
const NOT_DURABLE_PAUSE_MS = 5_000;

const stoppedSending = (core: RunnerCore) => core.isStopping() || core.gate.isClosed;

/** Back to `pending` with nothing sent, written now (while the journal is open). */
function putBackNow(core: RunnerCore, follower: ExecutionFollower, itemId: string): void {
  follower.forget(itemId);
  if (core.o.journal.getItem(itemId)?.state === 'submitting') core.update(itemId, { event: 'wait', reason: null });
  if (core.o.journal.getItem(itemId)?.state === 'encoding') core.update(itemId, { event: 'requeue' });
}

/** A refusal the service did not charge for: retry later, pause the batch, or fail the item. */
async function onSubmitError(core: RunnerCore, item: ItemRecord, images: Record<string, string>, batch: BatchRecord, attempts: number,
  error: unknown): Promise<void> {
  const itemId = item.id;
  const code = isAppError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  // The claim is given back before the item can be picked up (and marked) again, and before a stop can leave it
  // marked `submitting` for a photo that was never charged.
  const requeue = async (reason: string | null) => {
    core.update(itemId, { event: 'wait', reason });
    await notSent(core, item, batch);
    if (core.o.journal.getItem(itemId)?.state !== 'encoding') return; // cancelled meanwhile
    if (!core.isStopping()) core.ready.set(itemId, { batchId: batch.id, images, readyAt: nowMs() });
    else core.o.journal.updateItem(itemId, { event: 'requeue' });
  };
  if (code === 'insufficient_credits') {
    const requeued = requeue(null);
    const detail = isAppError(error) ? error.detail : {};
    if (typeof detail.available === 'number') core.credits.setBalance(detail.available);
    core.setBatchState(batch.id, 'paused', { code: 'insufficient-credits', reason: `insufficient credits: the service refused the next item (${message}). Top up, then resume.` });
    await requeued;
    return;
  }
  if (code === 'unauthorized') {
    const requeued = requeue(null);
    core.setBatchState(batch.id, 'paused', { code: 'unauthorized', reason: `the service rejected the API key (${message}). Check it in Settings, then resume.` });
    await requeued;
    return;
  }
  if (RETRYABLE.has(code) && attempts < (core.o.maxSubmitAttempts ?? 8)) {
    if (code === 'network' || code === 'timeout') core.gate.networkFailed();
    const retryAfter = isAppError(error) && typeof error.detail.retryAfterMs === 'number' ? error.detail.retryAfterMs : null;
    core.gate.backOff(retryAfter ?? backoffDelay(BACKOFF.submitRefused, attempts - 1));
    await requeue(`retrying: ${message}`);
    return;
  }
  const reason = code === 'server'
    ? `the service answered with an error (${message}). It was not sent again automatically; use "Retry failed" to send it again.`
    : message;
  core.update(itemId, { event: code === 'server' ? 'server-error' : 'refused', reason, completedAt: core.o.now().toISOString() });
}
