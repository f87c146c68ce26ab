import { SERVICE_UNREACHABLE, type BatchPause } from '../../../shared/engine/model';
import type { BatchRecord } from '../journal/types';
import type { RunnerCore } from './runner-core';

// When the request gate decides the service is unreachable, every running batch is paused with the code
// "service-unreachable" (so the UI, the CLI's --json progress and the tray say so instead of "Running"), and when a
// health probe gets through again those batches — and only those: a batch the user paused stays paused — resume.
// Its pausedReason stays the "service-unreachable" token that shared/engine/outage-text.ts words with the next try.

const OUTAGE: BatchPause = { code: 'service-unreachable', reason: SERVICE_UNREACHABLE };

export function pauseForOutage(core: RunnerCore): void {
  for (const id of core.o.journal.batchIdsInState('running')) core.setBatchState(id, 'paused', OUTAGE);
}

export function resumeAfterOutage(core: RunnerCore): void {
  for (const id of core.o.journal.batchIdsInState('paused')) {
    if (isOutagePause(core.batch(id))) core.setBatchState(id, 'running', null);
  }
}

/** Paused by an outage (a journal from before pause codes says so by its reason alone). */
export function isOutagePause(batch: Pick<BatchRecord, 'pausedReason' | 'pauseCode'>): boolean {
  return batch.pauseCode === 'service-unreachable' || (batch.pauseCode === null && batch.pausedReason === SERVICE_UNREACHABLE);
}

export const outagePause = (): BatchPause => OUTAGE;
