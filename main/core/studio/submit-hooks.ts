import { AppError } from '../../../shared/errors';
import type { SubmitHooks } from '../engine/submit-hooks';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { ledgerKey, parametersHash } from '../journal/ledger-key';
import type { Ledger } from './ledger';

// The engine's two money moments, told to the studio ledger: "about to submit" (refused when another instance
// owns the photo) and "accepted as execution X" (recorded before anything else happens, so an instance that takes
// over follows the execution instead of paying again) — and, before a result is written, "still ours?" (an instance
// paused past its lease finds its photo taken over, and leaves the result to the instance that took it). Only
// hot-folder items are claimed; a batch started by hand is this machine's own business.

function keyOf(item: ItemRecord, batch: BatchRecord): string | null {
  if (batch.spec.source.kind !== 'hotFolder' || !item.contentHash) return null;
  return ledgerKey(item.contentHash, batch.spec.workflowId, parametersHash(batch.spec.parameters));
}

/**
 * `ledger()` is read at each call: the engine starts (and resumes batches) before the ledger is open. While a
 * configured ledger is not open yet (`required`), hot-folder items wait rather than go out unclaimed.
 */
export function studioSubmitHooks(ledger: () => Ledger | null, required: boolean): SubmitHooks {
  return {
    async beforeSubmit(item, batch) {
      const current = ledger();
      const key = keyOf(item, batch);
      if (!key) return;
      if (!current && required) throw new AppError('unavailable', 'studio ledger not open yet');
      if (current?.shared) await current.submitting(key);
    },
    async notSent(item, batch) {
      const current = ledger();
      const key = keyOf(item, batch);
      if (current?.shared && key) await current.notSent(key);
    },
    async beforePlace(item, batch) {
      const current = ledger();
      const key = keyOf(item, batch);
      if (!key) return { ours: true };
      // Not open yet (a start with the database away): this instance's lease may have run out long ago. Waits.
      if (!current && required) throw new AppError('unavailable', 'studio ledger not open yet');
      if (!current?.shared || !current.placement) return { ours: true };
      return current.placement(key);
    },
    async accepted(item, batch, executionId) {
      const current = ledger();
      const key = keyOf(item, batch);
      if (current?.shared && key) await current.accepted(key, executionId, batch.creditCost, {
        id: batch.id, job: batch.spec.job ?? null, client: batch.spec.client ?? null, recipeFingerprint: batch.spec.recipe?.fingerprint ?? null,
      });
    },
  };
}
