import type { BridgeApi, DomainHandlers, EventNames, InvokeNames, PayloadOf } from './contract-kit';
import { batchChannels } from './channels/batches';
import { appChannels, fileChannels } from './channels/files';
import { hotFolderChannels } from './channels/hotfolders';
import { itemWindowChannels } from './channels/item-window';
import { reportChannels } from './channels/reports';
import { recipeChannels } from './channels/recipes';
import { serviceChannels } from './channels/service';
import { settingsChannels } from './channels/settings';
import { studioChannels } from './channels/studio';
import { updateChannels } from './channels/update';

/**
 * The one IPC contract. Main registration (Electron ipcMain wrapper, browser host), the preload's methods and the
 * renderer's `window.batchroom` type are all derived from this map; nothing is written twice.
 */
export const contract = {
  ...serviceChannels,
  ...settingsChannels,
  ...batchChannels,
  ...itemWindowChannels,
  ...hotFolderChannels,
  ...studioChannels,
  ...recipeChannels,
  ...reportChannels,
  ...fileChannels,
  ...appChannels,
  ...updateChannels,
} as const;

export type Contract = typeof contract;
export type Api = BridgeApi<Contract>;
export type InvokeChannelName = InvokeNames<Contract>;
export type EventChannelName = EventNames<Contract>;
export type Handlers = DomainHandlers<Contract>;
export type EventPayload<K extends EventChannelName> = PayloadOf<Contract, K>;

/** Main-side sink for events; each host forwards them to its renderer(s). */
export type EmitEvent = <K extends EventChannelName>(channel: K, payload: EventPayload<K>) => void;

export const INVOKE_CHANNELS = Object.keys(contract).filter(
  (k) => contract[k as keyof Contract].kind === 'invoke',
) as InvokeChannelName[];
export const EVENT_CHANNELS = Object.keys(contract).filter(
  (k) => contract[k as keyof Contract].kind === 'event',
) as EventChannelName[];
