import { statesOf } from '../../../shared/engine/item-states';
import { ITEM_STATES, type BatchSummary, type ItemState, type ItemView } from '../../../shared/engine/model';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord } from '../journal/types';

// Journal records → the public model (what crosses IPC). Progress counts in-flight items by their progress.

const FINAL = statesOf('terminal');
const IN_FLIGHT = statesOf('inFlight');

export function toItemView(item: ItemRecord): ItemView {
  return {
    id: item.id,
    batchId: item.batchId,
    position: item.position,
    displayName: item.displayName,
    sources: item.sources,
    state: item.state,
    progress: Math.max(0, Math.min(100, item.progress)),
    reason: item.reason,
    executionId: item.executionId,
    outputs: item.outputs,
    creditsCharged: item.creditsCharged,
    verdict: item.verdict,
    updatedAt: item.updatedAt,
    attention: item.attention,
    paidElsewhere: isPaidElsewhere(item),
  };
}

/**
 * A follower (engine/claim-followers.ts): waiting on another item's claim, or holding that claim's execution without
 * ever having submitted anything itself (a submit always counts an attempt).
 */
export const isPaidElsewhere = (item: Pick<ItemRecord, 'claimKey' | 'state' | 'attempts' | 'executionId' | 'creditsCharged'>): boolean =>
  item.claimKey !== null && item.state !== 'skipped' && item.creditsCharged === 0
  && (item.state === 'following' || (item.attempts === 0 && item.executionId !== null));

export interface EtaInput {
  /** Typical accept → saved time of one item, when measured. */
  itemMs: number | null;
  concurrency: number;
}

export function toBatchSummary(journal: Journal, batch: BatchRecord, eta: EtaInput): BatchSummary {
  const raw = journal.countByState(batch.id);
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, raw[s] ?? 0])) as Record<ItemState, number>;
  const total = ITEM_STATES.reduce((sum, s) => sum + counts[s], 0);
  const done = FINAL.reduce((sum, s) => sum + counts[s], 0);
  const inFlight = journal.progressSum(batch.id, IN_FLIGHT) / 100;
  const progress = total === 0 ? 1 : Math.min(1, (done + inFlight) / total);
  const remaining = total - done;
  const runnable = total - counts.skipped;
  const etaMs = remaining === 0 ? 0
    : eta.itemMs === null || batch.state !== 'running' ? null
      : Math.round((Math.max(0, remaining - inFlight) * eta.itemMs) / Math.max(1, eta.concurrency));
  return {
    id: batch.id,
    workflowId: batch.workflow.id,
    workflowName: batch.workflow.name,
    state: batch.state,
    pausedReason: batch.pausedReason,
    pauseCode: batch.state === 'paused' ? batch.pauseCode : null,
    createdAt: batch.createdAt,
    total,
    counts,
    progress,
    etaMs,
    // What another batch already paid for costs this one nothing (its followers).
    creditCost: Math.max(0, runnable - journal.countPaidElsewhere(batch.id)) * batch.creditCost,
    unitCost: batch.creditCost,
    trialRest: batch.spec.trialRest ?? null,
    creditsSpent: Math.max(0, batch.creditsSpent),
    budget: batch.budget,
    outputFolder: batch.outputFolder,
    priority: batch.priority ?? 0,
    queueOrder: batch.queueOrder ?? 0,
    ...(batch.spec.chain ? { chain: batch.spec.chain } : {}),
  };
}
