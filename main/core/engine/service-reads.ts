import { isAppError } from '../../../shared/errors';
import type { WorkflowDetail } from '../../../shared/service/model';
import type { Logger } from '../log';
import type { EngineOptions } from './engine-api';
import type { ServiceRead } from './recent-reads';
import type { Runner } from './runner';

// What an estimate and a Start read of the service (engine.ts plans with them): the balance and the workflow, each
// stamped with when and of which account it was asked — so a Start moments after its estimate can reuse them.

export interface ServiceReadDeps {
  client: EngineOptions['client'];
  runner: Runner;
  logger: Logger;
  nowMs: () => number;
}

export function serviceReadsFor({ client, runner, logger, nowMs }: ServiceReadDeps) {
  /**
   * The balance for an estimate: null when it cannot be read, except a refused key, which stops the estimate. Stamped
   * when it is asked for (synchronously, before the first await) with the account it is asked of.
   */
  async function readBalance(): Promise<ServiceRead<number | null>> {
    const at = nowMs();
    const account = client.account;
    try {
      const balance = (await runner.credits.read()).apiCredits;
      return { value: balance, at, account };
    } catch (error) {
      if (isAppError(error) && error.code === 'unauthorized') throw error;
      logger.warn('balance unavailable for estimate', { error: error instanceof Error ? error.message : String(error) });
      return { value: null, at, account };
    }
  }

  /**
   * The balance and the workflow, asked for at once: the balance is read while the workflow is fetched and the photos
   * planned (one round trip less before a run's first submit). Marked handled at once: a refused key surfaces where the
   * balance is awaited, or not at all if the workflow fetch failed first.
   */
  function readService(workflowId: string) {
    const balance = readBalance();
    balance.catch(() => undefined);
    const at = nowMs();
    const account = client.account;
    const workflow = client.getWorkflow(workflowId).then((value): ServiceRead<WorkflowDetail> => ({ value, at, account }));
    return { balance, workflow };
  }

  /**
   * The balance a Start reuses: what the estimate read, or less when this engine knows of less since — its running
   * batches were charged in the meantime (CreditGuard takes every charge off), or it has read a lower balance since —
   * less what its submissions in flight have committed (sent, not answered: not charged yet as far as it knows, and
   * possibly not in the balance the service reported either). May count one twice (safe side), never none.
   */
  const reusedBalance = (read: number): number => Math.min(read, runner.credits.knownBalance ?? read) - runner.credits.committedTotal;

  return { readService, reusedBalance };
}
