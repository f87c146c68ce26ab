import type { AppUpdater } from 'electron-updater';
import { APP_VERSION } from '../../shared/app-info';
import type { EmitEvent } from '../../shared/ipc/contract';
import type { Settings } from '../../shared/settings/schema';
import type { Logger } from '../core/log';
import { resolveUpdateConfig } from '../core/update/config';
import { createUpdateController, type UpdateController } from '../core/update/controller';
import type { UpdateSlot } from '../core/update/handlers';
import { policyDirs, readUpdatePolicy } from '../core/update/policy-file';
import { onWorkChange, workInFlight, type WorkSource } from '../core/update/work';

// The Electron glue of auto-update (docs/updates.md): electron-updater's autoUpdater (NSIS on Windows, with the
// publisher-signature check; Squirrel.Mac on macOS) driven by the core's update controller, told when work starts
// and ends, and heard by the renderer through `update:changed`. Everything it decides is tested in main/core/update.

export interface AppUpdatesDeps {
  core: WorkSource & { emit: EmitEvent; handlers: { 'settings:get': (args: Record<string, never>) => Promise<{ settings: Settings }> | { settings: Settings } } };
  slot: UpdateSlot;
  /** Development builds never update themselves (there is no installer to replace). */
  isPackaged: boolean;
  /** electron-updater's autoUpdater, loaded only when packaged. */
  loadUpdater(): Promise<AppUpdater>;
  execPath: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export async function startAppUpdates(deps: AppUpdatesDeps): Promise<UpdateController | null> {
  if (!deps.isPackaged) return null;
  const log = deps.logger.child('update');
  let settings = (await deps.core.handlers['settings:get']({})).settings;
  const dirs = policyDirs({ execPath: deps.execPath, platform: deps.platform, env: deps.env });
  const controller = createUpdateController({
    updater: await deps.loadUpdater(),
    currentVersion: APP_VERSION,
    config: () => resolveUpdateConfig(settings, readUpdatePolicy(dirs), deps.env),
    workInFlight: () => workInFlight(deps.core),
    onStatus: (status) => deps.core.emit('update:changed', status),
    logger: deps.logger,
  });
  deps.slot.attach(controller);
  deps.core.onEvent((channel, payload) => {
    if (channel !== 'settings:changed') return;
    settings = payload as Settings;
    controller.configChanged();
  });
  onWorkChange(deps.core, () => controller.workChanged());
  controller.start();
  log.info('update checks started');
  return controller;
}
