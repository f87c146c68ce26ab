import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import { SETTINGS_FILE_NAME, sharedStoreOptions, type SettingsBackend } from './backend';

/**
 * The plain-Node backend (CLI, browser host, tests): `<stateDir>/settings.json`, read and written as electron-store
 * (inside Electron) does it — the shared options' serializer and owner-only mode, written through `atomically` (temp
 * file, fsync, rename: the library conf and electron-store write with) — without conf itself, whose JSON-schema
 * validator (ajv) and migration machinery we never use but every command paid ≈ 30–50 ms to load (zod validates,
 * ./migrations.ts upgrades).
 */
export function createFileBackend(stateDir: string): SettingsBackend {
  const { deserialize, serialize, configFileMode: mode } = sharedStoreOptions(stateDir);
  const path = join(stateDir, `${SETTINGS_FILE_NAME}.json`);
  return {
    path,
    read() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw error;
      }
      return deserialize(text);
    },
    write(data) {
      mkdirSync(stateDir, { recursive: true });
      const text = serialize(data);
      try {
        atomicWriteFileSync(path, text, { mode });
      } catch (error) {
        // As conf does: Windows sometimes refuses the rename across what it thinks are two volumes.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        writeFileSync(path, text, { mode });
      }
    },
  };
}
