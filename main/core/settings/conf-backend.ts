import Conf from 'conf';
import { SETTINGS_FILE_NAME, backendOverStore, sharedStoreOptions, type SettingsBackend } from './backend';

/** The plain-Node backend (CLI, browser host, tests): conf, electron-store's own base, on `<stateDir>/settings.json`. */
export function createConfBackend(stateDir: string): SettingsBackend {
  return backendOverStore(new Conf<Record<string, unknown>>({ ...sharedStoreOptions(stateDir), configName: SETTINGS_FILE_NAME }));
}
