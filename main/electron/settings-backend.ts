import ElectronStore from 'electron-store';
import { SETTINGS_FILE_NAME, deserializeSettingsObject, type SettingsBackend } from '../core/settings/backend';

/**
 * The Electron backend of the settings store: electron-store on `<stateDir>/settings.json` (an absolute `cwd`, so
 * the app and the CLI share one file whatever Electron's userData is). Pass it to `openSettingsStore` as
 * `createBackend`; validation, migrations and repair stay in main/core/settings.
 */
export function createElectronStoreBackend(stateDir: string): SettingsBackend {
  const store = new ElectronStore<Record<string, unknown>>({
    cwd: stateDir,
    name: SETTINGS_FILE_NAME,
    deserialize: deserializeSettingsObject,
    serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
    clearInvalidConfig: false,
  });
  return {
    path: store.path,
    read: () => ({ ...store.store }),
    write: (data) => {
      store.store = data;
    },
  };
}
