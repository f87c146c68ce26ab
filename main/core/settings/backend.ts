import { OWNER_ONLY_FILE_MODE } from './state-dir';

/**
 * Where the settings file is read and written: a JSON file in plain Node (./file-backend.ts), electron-store inside
 * Electron (main/electron/settings-backend.ts). Both keep `<stateDir>/settings.json` and write atomically.
 */
export interface SettingsBackend {
  /** Absolute path of the settings file. */
  readonly path: string;
  /** The whole file as a JSON object; `{}` when the file does not exist. Throws on malformed JSON. */
  read(): Record<string, unknown>;
  /** Replaces the whole file. */
  write(data: Record<string, unknown>): void;
}

export type SettingsBackendFactory = (stateDir: string) => SettingsBackend;

/** The settings file's name inside the state directory (without extension, as conf and electron-store want it). */
export const SETTINGS_FILE_NAME = 'settings';

/**
 * conf's default deserializer accepts any JSON; a file holding `[]` or `"x"` is as corrupt as a syntax error for
 * us, so both backends use this one.
 */
export function deserializeSettingsObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SyntaxError('the settings file does not hold a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * The options both backends use (the file backend here, electron-store through conf): the file in the state dir, our
 * strict deserializer, readable JSON, and never silently wiping a file that fails to parse (the store repairs it).
 * No schema, defaults or migrations: zod validates and ./migrations.ts upgrades, the same in both backends.
 */
export function sharedStoreOptions(stateDir: string) {
  return {
    cwd: stateDir,
    deserialize: deserializeSettingsObject,
    serialize: (value: Record<string, unknown>) => `${JSON.stringify(value, null, 2)}\n`,
    clearInvalidConfig: false,
    // Owner-only: both write atomically (temp file + rename), so the mode applies on every save.
    configFileMode: OWNER_ONLY_FILE_MODE,
  };
}

/** Adapts a conf-like store (conf, electron-store) to the backend interface. */
export function backendOverStore(store: { readonly path: string; store: Record<string, unknown> }): SettingsBackend {
  return {
    path: store.path,
    read: () => ({ ...store.store }),
    write: (data) => {
      store.store = data;
    },
  };
}
