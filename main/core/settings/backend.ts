/**
 * Where the settings file is read and written: `conf` in plain Node (./conf-backend.ts), electron-store inside
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
