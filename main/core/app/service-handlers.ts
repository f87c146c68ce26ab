import type { EmitEvent } from '../../../shared/ipc/contract';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { ServiceStatus, serviceChannels } from '../../../shared/ipc/channels/service';
import type { ServiceClient } from '../service/types';

/** workflows:*, balance:*, service:status — thin, over whichever service the core is connected to. */
export function createServiceHandlers(deps: {
  client: ServiceClient;
  status: () => ServiceStatus;
  emit: EmitEvent;
}): DomainHandlers<typeof serviceChannels> {
  return {
    'workflows:list': ({ tag }) => deps.client.listWorkflows(tag ? { tag } : {}),
    'workflows:get': ({ id }) => deps.client.getWorkflow(id),
    'balance:get': async () => {
      const balance = await deps.client.getBalance();
      deps.emit('balance:changed', balance);
      return balance;
    },
    'service:status': () => deps.status(),
  };
}
