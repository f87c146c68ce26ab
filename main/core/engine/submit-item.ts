import { isAppError } from '../../../shared/errors';
import type { ExecuteRequest } from '../../../shared/service/model';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { ExecuteOutcome } from '../service/types';
import type { ExecutionFollower } from './follow-execution';
import { nowMs } from './clock';
import { addPhase } from './phase-times';
import { GateClosed } from './limiter';
import { isJournalClosed } from '../journal/closed';
import type { RunnerCore } from './runner-core';
import { announceAccepted, clearedToSubmit } from './submit-hooks';
import { lostEntryOf, updateWithLedger } from './done-record';

// Sending one encoded item to the service: the only place money is spent. The order of journal writes around the
// POST is what guarantees an item is never paid for twice without the user asking:
//   1. `submitting` is journalled and fsynced BEFORE the request leaves — a crash from there on makes the item
//      `unknown` at recovery, never `pending`, so it is not sent again automatically;
//   2. the execution id is journalled (fsynced, one transaction with the execution row and the batch's spend) the
//      moment the answer arrives — from then on recovery polls it instead;
//   3. an answer that was lost after the body was sent makes the item `unknown` as well.
// An error thrown by the client (rather than an `unknown` outcome) is an answered refusal or a request that never
// left: the payload goes back to the ready queue to retry, or the batch pauses (402, 401), or the item fails.
// A server error (5xx) is NOT retried automatically: the service received the request and did not say whether it
// started an execution, so sending it again is the user's call ("Retry failed"), never the engine's.
// Once the engine is stopping nothing more leaves: a submission still waiting for its turn at the gate (a back-off,
// the offline latch) puts its item back (`pending`, nothing spent) while the journal is still open — a request sent
// after stop() returned would be charged with nowhere left to journal its execution id.

const RETRYABLE = new Set(['rate_limited', 'network', 'timeout', 'unavailable', 'conflict']);

export function submitItem(core: RunnerCore, follower: ExecutionFollower, itemId: string, images: Record<string, string>, batch: BatchRecord): void {
  const { journal } = core.o;
  const item = journal.getItem(itemId);
  if (!item || item.state !== 'encoding') return;
  const cost = batch.creditCost;
  // Journalled (and fsynced) before the request leaves: a crash from here on makes the item `unknown`, never `pending`.
  core.update(itemId, { event: 'submit', attempts: item.attempts + 1, reason: null }, { durable: true });
  follower.track({ ...item, state: 'submitting' }, batch, nowMs());
  core.credits.reserve(batch.id, cost);
  core.run(async () => {
    const request: ExecuteRequest = { images, ...batch.spec.parameters };
    try {
      if (!(await core.beforeSend(readyToSend(core, follower, item, batch, images)))) return;
      core.stats.submits += 1;
      const sentAt = nowMs();
      const outcome: ExecuteOutcome = await core.o.client.execute(batch.workflow, request);
      addPhase(core.stats.phases, 'upload', nowMs() - sentAt);
      core.gate.succeeded();
      if (outcome.kind === 'accepted') {
        try {
          journal.recordAccepted(itemId, outcome.executionId, cost, core.o.now().toISOString());
        } catch (error) {
          // Charged, and the journal closed under the answer: this log line is then the only record of its id.
          if (isJournalClosed(error)) core.o.logger.warn('execution accepted after the journal closed', { itemId, executionId: outcome.executionId });
          throw error;
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
      follower.forget(itemId);
      if (isJournalClosed(error)) throw error; // nothing more can be journalled: the next start sees it `submitting`
      onSubmitError(core, itemId, images, batch, item.attempts + 1, error);
    } finally {
      core.credits.release(batch.id, cost);
      core.kick();
    }
  });
}

/** The studio ledger's go-ahead, then the gate's: false when the item went back instead (nothing was sent). */
async function readyToSend(core: RunnerCore, follower: ExecutionFollower, item: ItemRecord, batch: BatchRecord, images: Record<string, string>): Promise<boolean> {
  if (!core.isStopping() && !(await clearedToSubmit(core, follower, { ...item, state: 'submitting' }, batch, images))) return false;
  try {
    if (!core.isStopping()) await core.gate.acquire();
  } catch (error) {
    if (!(error instanceof GateClosed)) throw error;
  }
  if (!core.isStopping() && !core.gate.isClosed) return true;
  follower.forget(item.id);
  core.update(item.id, { event: 'wait', reason: null });
  core.update(item.id, { event: 'requeue' });
  return false;
}

/** A refusal the service did not charge for: retry later, pause the batch, or fail the item. */
function onSubmitError(core: RunnerCore, itemId: string, images: Record<string, string>, batch: BatchRecord, attempts: number, error: unknown): void {
  const code = isAppError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  const requeue = (reason: string | null) => {
    core.update(itemId, { event: 'wait', reason });
    if (!core.isStopping()) core.ready.set(itemId, { batchId: batch.id, images, readyAt: nowMs() });
    else core.o.journal.updateItem(itemId, { event: 'requeue' });
  };
  if (code === 'insufficient_credits') {
    requeue(null);
    const detail = isAppError(error) ? error.detail : {};
    if (typeof detail.available === 'number') core.credits.setBalance(detail.available);
    core.setBatchState(batch.id, 'paused', `insufficient credits: the service refused the next item (${message}). Top up, then resume.`);
    return;
  }
  if (code === 'unauthorized') {
    requeue(null);
    core.setBatchState(batch.id, 'paused', `the service rejected the API key (${message}). Check it in Settings, then resume.`);
    return;
  }
  if (RETRYABLE.has(code) && attempts < (core.o.maxSubmitAttempts ?? 8)) {
    if (code === 'network' || code === 'timeout') core.gate.networkFailed();
    const retryAfter = isAppError(error) && typeof error.detail.retryAfterMs === 'number' ? error.detail.retryAfterMs : null;
    core.gate.backOff(retryAfter ?? Math.min(10_000, 250 * 2 ** attempts));
    requeue(`retrying: ${message}`);
    return;
  }
  const reason = code === 'server'
    ? `the service answered with an error (${message}). It was not sent again automatically; use "Retry failed" to send it again.`
    : message;
  core.update(itemId, { event: 'refused', reason, completedAt: core.o.now().toISOString() });
}
