import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { hotFolderChannels } from '../../../shared/ipc/channels/hotfolders';
import type { HotFolderManager } from './manager';

/** The `hotFolders:*` invoke channels, served by the manager (arguments arrive already parsed by the host). */
export function createHotFolderHandlers(manager: HotFolderManager): DomainHandlers<typeof hotFolderChannels> {
  return {
    'hotFolders:list': () => manager.list(),
    'hotFolders:save': (config) => manager.save(config),
    'hotFolders:remove': async ({ id }) => ({ removed: await manager.remove(id) }),
    'hotFolders:setArmed': ({ id, armed }) => manager.setArmed(id, armed),
    'hotFolders:dryRun': ({ id }) => manager.dryRun(id),
    'hotFolders:reprocess': ({ id }) => manager.reprocess(id),
  };
}
