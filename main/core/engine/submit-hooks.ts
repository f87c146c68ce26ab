import { isAppError } from '../../../shared/errors';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { nowMs } from './clock';
import { BACKOFF, backoffDelay } from '../service/retry';
import type { RunnerCore, SendTicket } from './runner-core';
import { PlacementUndecided, PlacementWithdrawn } from './save-errors';
import type { SaverDeps } from './saver-deps';

export type { SubmitHooks } from './runner-core';
import type { ExecutionFollower } from './follow-execution';

/**
 * Runs beforeSubmit; false when the item must not be sent now (already cancelled or requeued here — or put back by
 * the stop meanwhile: then nothing is written).
 */
export async function clearedToSubmit(core: RunnerCore, follower: ExecutionFollower, item: ItemRecord, batch: BatchRecord,
  images: Record<string, string>, ticket: SendTicket): Promise<boolean> {
  const hooks = core.o.submitHooks;
  if (!hooks) return true;
  try {
    await hooks.beforeSubmit(item, batch);
    return true;
  } catch (error) {
    if (ticket.abandoned) return false;
    follower.forget(item.id);
    const message = error instanceof Error ? error.message : String(error);
    if (isAppError(error) && error.code === 'conflict') {
      core.update(item.id, { event: 'claimed-elsewhere', reason: message, completedAt: core.o.now().toISOString() });
      return false;
    }
    // Nothing was sent: back to the queue, and no new submission for a moment. The claim may have been marked
    // before the error (a query that timed out after it committed): given back first, before the item can be picked
    // up and marked again.
    core.gate.backOff(2_000);
    core.update(item.id, { event: 'wait', reason: `waiting: ${message}` });
    await notSent(core, item, batch);
    if (ticket.abandoned || core.o.journal.getItem(item.id)?.state !== 'encoding') return false; // put back, or cancelled meanwhile
    if (!core.isStopping()) core.ready.set(item.id, { batchId: batch.id, images, readyAt: nowMs() });
    else core.o.journal.updateItem(item.id, { event: 'requeue' });
    return false;
  }
}

/**
 * notSent(): what beforeSubmit marked goes back (the studio claim `submitting` → `claimed`). A failure only logs: the
 * item is back in the local journal, and the next start gives the claim back from there (docs/studio.md).
 */
export async function notSent(core: RunnerCore, item: ItemRecord, batch: BatchRecord): Promise<void> {
  const hooks = core.o.submitHooks;
  if (!hooks?.notSent) return;
  try {
    await hooks.notSent(item, batch);
  } catch (error) {
    core.o.logger.warn('claim not given back after a put-back (the next start does it)', { itemId: item.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** accepted(), retried with backoff until it is recorded (or the engine stops: the journal has the id anyway). */
export async function announceAccepted(core: RunnerCore, item: ItemRecord, batch: BatchRecord, executionId: string): Promise<void> {
  const hooks = core.o.submitHooks;
  if (!hooks) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await hooks.accepted(item, batch, executionId);
      return;
    } catch (error) {
      if (core.isStopping()) {
        core.o.logger.warn('execution id kept in the local journal only (stopping)', { executionId, error: (error as Error).message });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(BACKOFF.recordAccepted, attempt)));
    }
  }
}

/**
 * The saver's last question before a final name, from the hooks' beforePlace (absent on a single machine). A ledger
 * that cannot tell — unreachable after this instance's lease may have run out, a query that timed out, any error —
 * is PlacementUndecided: the save stops there with the result kept, and the download pool asks again later. Writing
 * now could be the second copy of a photo another instance took over; failing it would let another instance pay
 * for it again; writing later costs nothing.
 */
export function placementCheck(core: RunnerCore): SaverDeps['confirmPlacement'] {
  const beforePlace = core.o.submitHooks?.beforePlace?.bind(core.o.submitHooks);
  if (!beforePlace) return undefined;
  return async (item, batch) => {
    let verdict;
    try {
      verdict = await beforePlace(item, batch);
    } catch (error) {
      throw new PlacementUndecided(`kept, not saved yet: the studio ledger cannot confirm the photo is still this instance's (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    if (!verdict.ours) throw new PlacementWithdrawn(verdict.reason);
  };
}
