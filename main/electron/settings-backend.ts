import ElectronStore from 'electron-store';
import { SETTINGS_FILE_NAME, backendOverStore, sharedStoreOptions, type SettingsBackend } from '../core/settings/backend';

/**
 * The Electron backend of the settings store: electron-store on `<stateDir>/settings.json` (an absolute `cwd`, so
 * the app and the CLI share one file whatever Electron's userData is). Pass it to `openSettingsStore` as
 * `createBackend`; validation, migrations and repair stay in main/core/settings.
 */
export function createElectronStoreBackend(stateDir: string): SettingsBackend {
  return backendOverStore(new ElectronStore<Record<string, unknown>>({ ...sharedStoreOptions(stateDir), name: SETTINGS_FILE_NAME }));
}
