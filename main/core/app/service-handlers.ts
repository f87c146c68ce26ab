import type { EmitEvent } from '../../../shared/ipc/contract';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { ServiceStatus, serviceChannels } from '../../../shared/ipc/channels/service';
import type { Balance } from '../../../shared/service/model';
import type { ServiceClient } from '../service/types';

/** workflows:*, balance:*, service:status — thin, over whichever service the core is connected to. */
export function createServiceHandlers(deps: {
  client: ServiceClient;
  status: () => ServiceStatus;
  emit: EmitEvent;
  /** Reads the balance through the engine when one runs (balance-refresh.ts balanceReader); the client's otherwise. */
  readBalance?: () => Promise<Balance>;
}): DomainHandlers<typeof serviceChannels> {
  return {
    'workflows:list': ({ tag }) => deps.client.listWorkflows(tag ? { tag } : {}),
    'workflows:get': ({ id }) => deps.client.getWorkflow(id),
    'balance:get': async () => {
      const balance = await (deps.readBalance ?? (() => deps.client.getBalance()))();
      deps.emit('balance:changed', balance);
      return balance;
    },
    'service:status': () => deps.status(),
  };
}
