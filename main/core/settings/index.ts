// Settings: one zod schema (shared/settings/schema.ts), versioned migrations, key-by-key repair, and a store over
// a JSON file (plain Node, ./file-backend.ts) or electron-store (main/electron/settings-backend.ts), in the state directory.
export { SETTINGS_FILE_NAME, deserializeSettingsObject, type SettingsBackend, type SettingsBackendFactory } from './backend';
export { createFileBackend } from './file-backend';
export { MIGRATIONS, migrateSettings, type MigrationOutcome } from './migrations';
export { repairSettings, type RepairOutcome } from './repair';
export { STATE_DIR_ENV, ensureStateDir, resolveStateDir, type StateDirOptions } from './state-dir';
export { openSettingsStore, type OpenSettingsOptions, type SettingsStore } from './store';
