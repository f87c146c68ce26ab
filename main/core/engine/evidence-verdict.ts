import type { RunnerCore } from './runner-core';
import { lostEntryOf, recordLedger } from './done-record';

/**
 * After the balance judged lost submissions (balance-check.ts): their new states reach the listeners; a batch that
 * had completed runs again for those proved uncharged; a batch the user cancelled meanwhile keeps them unsent, like
 * the rest of it (Resume runs them). A photo proved charged is `charged-no-result` in the done ledger too, so a later
 * batch holds it back with that reason rather than "may have been charged".
 */
export function afterEvidence(core: RunnerCore, itemIds: readonly string[], resent: readonly string[]): void {
  const { journal } = core.o;
  const batches = new Set<string>();
  for (const id of itemIds) {
    const item = journal.getItem(id);
    if (!item) continue;
    core.o.onItem(item);
    batches.add(item.batchId);
    if (item.state === 'charged-no-result') {
      const entry = lostEntryOf(item, core.batch(item.batchId), item.completedAt ?? new Date().toISOString(), 'charged-no-result');
      if (entry) core.run(() => recordLedger(core, entry));
    }
  }
  const reopened = new Map<string, string[]>();
  for (const id of resent) {
    const batchId = journal.getItem(id)?.batchId;
    if (batchId) reopened.set(batchId, [...(reopened.get(batchId) ?? []), id]);
  }
  for (const id of batches) {
    const batch = core.refreshBatch(id);
    const again = reopened.get(id) ?? [];
    if (again.length > 0 && batch.state === 'cancelled') {
      for (const itemId of again) core.update(itemId, { event: 'cancel', reason: 'cancelled by you (the balance showed it had not been charged)' });
    } else if (again.length > 0 && batch.state === 'completed') {
      core.setBatchState(id, 'running', null);
    } else {
      core.checkBatchDone(id);
    }
  }
  core.kick();
}
