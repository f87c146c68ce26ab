import { SERVICE_UNREACHABLE } from '../../../shared/engine/model';
import type { RunnerCore } from './runner-core';

// When the request gate decides the service is unreachable, every running batch is paused with the reason
// "service-unreachable" (so the UI, the CLI's --json progress and the tray say so instead of "Running"), and when a
// health probe gets through again those batches — and only those: a batch the user paused stays paused — resume.

export function pauseForOutage(core: RunnerCore): void {
  for (const id of core.o.journal.batchIdsInState('running')) core.setBatchState(id, 'paused', SERVICE_UNREACHABLE);
}

export function resumeAfterOutage(core: RunnerCore): void {
  for (const id of core.o.journal.batchIdsInState('paused')) {
    if (core.batch(id).pausedReason === SERVICE_UNREACHABLE) core.setBatchState(id, 'running', null);
  }
}

export function isOutagePause(pausedReason: string | null): boolean {
  return pausedReason === SERVICE_UNREACHABLE;
}
