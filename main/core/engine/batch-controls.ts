import { statesOf } from '../../../shared/engine/item-states';
import { providerReportCsv, providerReportFileName, type ProviderReportRow } from '../../../shared/engine/provider-report';
import type { Journal } from '../journal/journal';
import { itemsOfBatch } from '../journal/item-pages';
import type { QueueEnd } from '../journal/batch-order';
import type { Runner } from './runner';

// The engine's controls that walk a batch's items (engine.ts keeps the ones that change a batch's state): what
// "Retry failed", reordering the queue and "Report to provider" do to the journal.

export interface ControlContext {
  journal: Journal;
  runner: Runner;
  /** Marks an item changed for the next progress event. */
  markItem: (itemId: string, batchId: string) => void;
  now: () => Date;
}

/** "Retry failed": a paid result that was not saved is fetched again, anything else runs again. Returns how many. */
export function retryFailedItems({ journal, runner, markItem }: ControlContext, batchId: string): number {
  const failed = journal.itemsInStates(batchId, statesOf('retryable'));
  // An export's items hold results paid for in another batch (0 credits here): fetched again too, never re-run.
  const exported = journal.getBatch(batchId)?.spec.exportOf !== undefined;
  for (const item of failed) {
    if (item.executionId && item.resultUrls.length > 0 && (item.creditsCharged > 0 || exported)) {
      journal.updateItem(item.id, { event: 'redownload', reason: null });
      runner.enqueueDownload(item.id);
    } else {
      journal.updateItem(item.id, { event: 'retry', reason: null, progress: 0, attempts: 0, executionId: null, resultUrls: [], resultLabels: [] });
    }
    markItem(item.id, batchId);
  }
  return failed.length;
}

/** Moves pending items (others are ignored) before `beforeItemId`, or to the front of what is still pending. */
export function reorderItems({ journal, markItem }: ControlContext, batchId: string, itemIds: readonly string[], beforeItemId: string | null): { moved: number } {
  const all: string[] = [];
  const pending = new Set<string>();
  for (const item of itemsOfBatch(journal, batchId, 5000)) {
    all.push(item.id);
    if (item.state === 'pending') pending.add(item.id);
  }
  const moving = itemIds.filter((id) => pending.has(id) && id !== beforeItemId);
  const movingSet = new Set(moving);
  const rest = all.filter((id) => !movingSet.has(id));
  let at = beforeItemId ? rest.indexOf(beforeItemId) : rest.findIndex((id) => pending.has(id));
  if (at < 0) at = rest.length;
  journal.setPositions(batchId, [...rest.slice(0, at), ...moving, ...rest.slice(at)]);
  for (const id of moving) markItem(id, batchId);
  return { moved: moving.length };
}

/**
 * Queue order across batches (journal/batch-order.ts): the next free slot goes to the moved batch. Executions already
 * submitted run on (the service cannot stop one, and it is paid); encoded payloads of batches now behind give their
 * places back (encode-ahead.ts). Returns whether anything moved (false: no other open batch to move past).
 */
export function moveBatchInQueue({ journal, runner }: ControlContext, batchId: string, to: QueueEnd): boolean {
  const moved = journal.moveBatch(batchId, to);
  if (moved) afterQueueChange(runner, batchId);
  return moved;
}

export function setBatchPriority({ journal, runner }: ControlContext, batchId: string, priority: number): void {
  journal.setBatchPriority(batchId, priority);
  afterQueueChange(runner, batchId);
}

function afterQueueChange(runner: Runner, batchId: string): void {
  runner.refreshBatch(batchId);
  runner.o.onBatch(batchId);
  runner.kick();
}

/** Executions charged without a result, of one batch or all, as rows and as the CSV the user sends the provider. */
export function providerReportOf({ journal, runner, now }: ControlContext, batchId: string | null): { rows: ProviderReportRow[]; csv: string; fileName: string } {
  const rows = journal.itemsInStates(batchId, ['charged-no-result']).map((item): ProviderReportRow => {
    const batch = runner.batch(item.batchId);
    return {
      executionId: item.executionId ?? '', submittedAt: item.submittedAt, credits: item.creditsCharged, workflowId: batch.workflow.id,
      batchId: item.batchId, photo: item.displayName, reason: item.reason,
    };
  });
  return { rows, csv: providerReportCsv(rows), fileName: providerReportFileName(now()) };
}
