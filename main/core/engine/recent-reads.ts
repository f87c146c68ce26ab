import type { WorkflowDetail } from '../../../shared/service/model';

/**
 * How long the workflow and balance an estimate read stay good for the Start that follows it: `batchroom run --yes`
 * creates its batch milliseconds after the estimate, and a click on Start in the summary within seconds. Reusing
 * them saves Start a round trip to the service before the first photo is sent; the batch is also recorded at the
 * price the user was shown. Longer than this, Start reads both again (the balance may have moved).
 */
export const RECENT_READS_MS = 10_000;

export interface ServiceReads {
  workflow: WorkflowDetail;
  balance: number;
}

export interface RecentReads {
  /** What a successful estimate read (an unknown balance is not kept: Start tries to read it again). */
  remember(workflowId: string, workflow: WorkflowDetail, balance: number | null): void;
  forget(): void;
  /** The reads of the last estimate if they are for this workflow and recent enough. Once: the next Start reads afresh. */
  take(workflowId: string): ServiceReads | null;
}

export function createRecentReads(nowMs: () => number): RecentReads {
  let last: (ServiceReads & { workflowId: string; at: number }) | null = null;
  return {
    remember(workflowId, workflow, balance) {
      last = balance === null ? null : { workflowId, workflow, balance, at: nowMs() };
    },
    forget() {
      last = null;
    },
    take(workflowId) {
      const kept = last;
      last = null;
      if (!kept || kept.workflowId !== workflowId) return null;
      const age = nowMs() - kept.at;
      return age >= 0 && age <= RECENT_READS_MS ? { workflow: kept.workflow, balance: kept.balance } : null;
    },
  };
}
