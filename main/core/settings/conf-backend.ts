import Conf from 'conf';
import { SETTINGS_FILE_NAME, deserializeSettingsObject, type SettingsBackend } from './backend';

/** The plain-Node backend (CLI, browser host, tests): conf, electron-store's own base, on `<stateDir>/settings.json`. */
export function createConfBackend(stateDir: string): SettingsBackend {
  // No conf schema, defaults or migrations: zod validates and ./migrations.ts upgrades, the same in both backends.
  const conf = new Conf<Record<string, unknown>>({
    cwd: stateDir,
    configName: SETTINGS_FILE_NAME,
    deserialize: deserializeSettingsObject,
    serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
    clearInvalidConfig: false,
  });
  return {
    path: conf.path,
    read: () => ({ ...conf.store }),
    write: (data) => {
      conf.store = data;
    },
  };
}
