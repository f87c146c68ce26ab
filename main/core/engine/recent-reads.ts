import type { WorkflowDetail } from '../../../shared/service/model';

/**
 * How long the workflow and balance an estimate read stay good for the Start that follows it: `batchroom run --yes`
 * creates its batch milliseconds after the estimate, and a click on Start in the summary within seconds. Reusing
 * them saves Start a round trip to the service before the first photo is sent; the batch is also recorded at the
 * price the user was shown. Longer than this, Start reads both again (the balance may have moved).
 */
export const RECENT_READS_MS = 10_000;

/** One answer of the service, with when its request left and the account it went to (ServiceClient.account). */
export interface ServiceRead<T> {
  value: T;
  /** The age of a read counts from when it was asked for: the answer is at least that old. */
  at: number;
  account: object;
}

export interface ServiceReads {
  workflow: WorkflowDetail;
  balance: number;
}

export interface RecentReads {
  /**
   * What a successful estimate read. An unknown balance is not kept (Start tries to read it again), nor are reads
   * from two accounts (the key changed while the estimate ran).
   */
  remember(workflowId: string, workflow: ServiceRead<WorkflowDetail>, balance: ServiceRead<number | null>): void;
  forget(): void;
  /**
   * The reads of the last estimate if they are for this workflow, from this account (a key or service change since
   * then makes Start read afresh) and recent enough. Once: the next Start reads afresh.
   */
  take(workflowId: string, account: object): ServiceReads | null;
}

export function createRecentReads(nowMs: () => number): RecentReads {
  let last: (ServiceReads & { workflowId: string; at: number; account: object }) | null = null;
  return {
    remember(workflowId, workflow, balance) {
      last = balance.value === null || balance.account !== workflow.account
        ? null
        : { workflowId, workflow: workflow.value, balance: balance.value, at: Math.min(workflow.at, balance.at), account: balance.account };
    },
    forget() {
      last = null;
    },
    take(workflowId, account) {
      const kept = last;
      last = null;
      if (!kept || kept.workflowId !== workflowId || kept.account !== account) return null;
      const age = nowMs() - kept.at;
      return age >= 0 && age <= RECENT_READS_MS ? { workflow: kept.workflow, balance: kept.balance } : null;
    },
  };
}
