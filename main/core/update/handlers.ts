import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { updateChannels } from '../../../shared/ipc/channels/update';
import type { UpdateStatus } from '../../../shared/update/model';
import type { UpdateSettings } from './config';
import type { UpdateController } from './controller';

/**
 * Where the host puts its update controller once it has one: the Electron app after the core is up (it needs the
 * core's work-in-flight signal) and only when packaged. Every other host (the CLI, the browser host, a development
 * build) never attaches one, and the channels answer 'unavailable'.
 */
export interface UpdateSlot {
  attach(controller: UpdateController): void;
  current(): UpdateController | null;
}

export function createUpdateSlot(): UpdateSlot {
  let controller: UpdateController | null = null;
  return { attach: (c) => { controller = c; }, current: () => controller };
}

export interface UpdateHandlerDeps {
  slot?: UpdateSlot;
  settings(): UpdateSettings;
  currentVersion: string;
}

export function createUpdateHandlers(deps: UpdateHandlerDeps): DomainHandlers<typeof updateChannels> {
  const unavailable = (): UpdateStatus => {
    const s = deps.settings();
    return {
      state: 'unavailable', currentVersion: deps.currentVersion, channel: s.updateChannel, managedBy: 'settings',
      stayOnThisVersion: s.updateStayOnThisVersion, available: null, percent: null, lastCheckedAt: null,
      message: 'This copy of Batchroom does not update itself: the installed desktop app does (on the command line, batchroom update --check says whether a newer release exists).',
    };
  };
  return {
    'update:status': () => deps.slot?.current()?.status() ?? unavailable(),
    'update:check': async () => {
      const controller = deps.slot?.current();
      return controller ? controller.check() : unavailable();
    },
    'update:install': () => deps.slot?.current()?.install() ?? unavailable(),
  };
}
