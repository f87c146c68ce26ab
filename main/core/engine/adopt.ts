import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { BatchSpec } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import type { Journal } from '../journal/journal';
import type { BatchRecord, NewItem } from '../journal/types';
import { isClaimHeld } from '../journal/claims';

/** An execution submitted elsewhere (another instance, now gone) that this engine follows and saves. */
export interface AdoptedExecution {
  path: string;
  executionId: string;
  credits: number;
}

export interface AdoptDeps {
  journal: Journal;
  runner: { follow(itemId: string): void };
  now: () => Date;
  markItem(itemId: string, batchId: string): void;
}

/**
 * Journals a batch whose items start `submitted` with the adopted execution ids (the same transaction as a local
 * acceptance), then follows them. An item without an execution to follow is cancelled: adoption never submits.
 */
export function adoptExecutions(deps: AdoptDeps, spec: BatchSpec, workflow: WorkflowDetail, items: readonly NewItem[],
  executions: readonly AdoptedExecution[]): string {
  const { journal } = deps;
  const at = deps.now().toISOString();
  const batch: BatchRecord = {
    id: randomUUID(), spec, workflow, creditCost: workflow.creditCost, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at,
    creditsSpent: 0, budget: null, outputFolder: spec.output.outputFolder,
  };
  const byPath = new Map(executions.map((e) => [resolve(e.path), e]));
  journal.createBatch(batch, items);
  for (const item of journal.itemsInStates(batch.id, ['pending'])) {
    const adopted = Object.values(item.sources).map((source) => byPath.get(resolve(source))).find((e) => e !== undefined);
    if (adopted) {
      try {
        journal.recordAccepted(item.id, adopted.executionId, adopted.credits, at, 'adopt');
        deps.runner.follow(item.id);
      } catch (error) {
        // This machine already holds the photo's unit (another batch of it): take that result, do not adopt twice.
        if (!isClaimHeld(error)) throw error;
        journal.updateItem(item.id, { event: 'follow', reason: 'the same photo is already being processed by another batch here: this batch takes that result' });
      }
    } else {
      journal.updateItem(item.id, { event: 'cancel', reason: 'no execution to follow for this file', completedAt: at });
    }
    deps.markItem(item.id, batch.id);
  }
  return batch.id;
}
