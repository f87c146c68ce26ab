import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../../../shared/errors';
import { redactSecrets } from '../../../shared/redact';
import {
  DEFAULT_SETTINGS,
  SETTINGS_VERSION,
  SettingsPatchSchema,
  type Settings,
  type SettingsPatchInput,
  type SettingsWarning,
} from '../../../shared/settings/schema';
import { formatZodError } from '../../../shared/validation';
import { SETTINGS_FILE_NAME, deserializeSettingsObject, type SettingsBackend, type SettingsBackendFactory } from './backend';
import { createFileBackend } from './file-backend';
import { migrateSettings } from './migrations';
import { assertOutputFolder } from './output-folder';
import { repairSettings } from './repair';
import { OWNER_ONLY_FILE_MODE, ensureStateDir, restrictToOwner } from './state-dir';

export interface SettingsStore {
  /** Absolute path of the settings file. */
  readonly path: string;
  /** What had to be repaired while loading (empty for a healthy file); shown once by the app, printed by the CLI. */
  readonly warnings: readonly SettingsWarning[];
  get(): Settings;
  /** Validates the patch (throws AppError 'bad_request' naming the field), merges it key by key, and saves. */
  update(patch: SettingsPatchInput): Settings;
  reset(): Settings;
  onChange(listener: (settings: Settings) => void): () => void;
}

export interface OpenSettingsOptions {
  stateDir: string;
  /** Defaults to the JSON file backend; Electron passes the electron-store backend. */
  createBackend?: SettingsBackendFactory;
  /** For backup names; injectable for tests. */
  now?: () => Date;
}

function backupName(path: string, now: Date, tag: string): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${path.replace(/\.json$/, '')}.${tag}-${stamp}.json`;
}

type Preflight = { existed: boolean; text: string | null; warnings: SettingsWarning[]; readOnly: boolean };

/**
 * Copies the settings file aside before Batchroom changes what the user wrote. Anything shaped like an API key is
 * masked in the copy: a key pasted into settings.json by mistake must not be multiplied into backups.
 */
function keepBackup(path: string, text: string, now: Date, tag: string): string | null {
  const backupPath = backupName(path, now, tag);
  try {
    writeFileSync(backupPath, redactSecrets(text), { flag: 'wx', mode: OWNER_ONLY_FILE_MODE });
    return backupPath;
  } catch {
    return null;
  }
}

/**
 * conf and electron-store throw from their constructors on malformed JSON, so the raw file is checked first: a
 * corrupt one is moved aside (kept as the backup) and the app starts from defaults. If it cannot be moved, the
 * session runs on defaults in memory and leaves the file alone.
 */
function preflight(path: string, now: Date): Preflight {
  if (!existsSync(path)) return { existed: false, text: null, warnings: [], readOnly: false };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const message = `Settings: could not read ${path} (${(error as Error).message}); using defaults for this session, changes are not saved.`;
    return { existed: true, text: null, warnings: [{ kind: 'unreadable', key: null, message, backupPath: null }], readOnly: true };
  }
  try {
    deserializeSettingsObject(text);
    return { existed: true, text, warnings: [], readOnly: false };
  } catch (error) {
    const reason = (error as Error).message;
    const backupPath = keepBackup(path, text, now, 'corrupt');
    if (!backupPath) {
      const message = `Settings: ${path} is not valid JSON (${reason}) and could not be backed up; using defaults for this session, changes are not saved.`;
      return { existed: true, text, warnings: [{ kind: 'corrupt-file', key: null, message, backupPath: null }], readOnly: true };
    }
    try {
      unlinkSync(path);
    } catch {
      // Another Batchroom process starting at the same moment may have moved it already.
    }
    const message = `Settings: ${path} was not valid JSON (${reason}); started from defaults. The broken file is kept at ${backupPath}.`;
    return { existed: false, text: null, warnings: [{ kind: 'corrupt-file', key: null, message, backupPath }], readOnly: false };
  }
}

/** Settings that live only for this session (the file could not be read or moved aside). */
function memoryBackend(path: string): SettingsBackend {
  return { path, read: () => ({}), write: () => undefined };
}

/**
 * Opens `<stateDir>/settings.json`: migrates an older version, repairs what is broken key by key (keeping a
 * backup of the file as it was), and never fails to start for a bad file.
 */
export function openSettingsStore(options: OpenSettingsOptions): SettingsStore {
  const now = options.now ?? (() => new Date());
  ensureStateDir(options.stateDir);
  const path = join(options.stateDir, `${SETTINGS_FILE_NAME}.json`);
  restrictToOwner([path]);
  const checked = preflight(path, now());
  const warnings: SettingsWarning[] = [...checked.warnings];
  const readOnly = checked.readOnly;

  const backend: SettingsBackend = readOnly ? memoryBackend(path) : (options.createBackend ?? createFileBackend)(options.stateDir);
  const raw = backend.read();
  const migrated = migrateSettings(raw);
  const repaired = repairSettings(migrated.data);
  let settings = repaired.settings;

  const lossy: SettingsWarning[] = [...repaired.warnings];
  // An unversioned file with nothing to rename is just a hand-written current file: no news worth a warning.
  const upgraded = migrated.notes.length > 0 || (raw.version !== undefined && migrated.fromVersion < SETTINGS_VERSION);
  if (upgraded && checked.existed) {
    const changes = migrated.notes.length ? `: ${migrated.notes.join('; ')}` : '';
    lossy.push({ kind: 'migrated', key: null, message: `Settings upgraded from version ${migrated.fromVersion} to ${SETTINGS_VERSION}${changes}.`, backupPath: null });
  }
  if (!migrated.understood) {
    lossy.push({
      kind: 'newer-version',
      key: null,
      message: `Settings were written by a newer Batchroom (version ${migrated.fromVersion}); keys this version knows are used, the rest is dropped.`,
      backupPath: null,
    });
  }
  // Anything that changes what the user wrote gets a backup of the file as it was, named in every warning.
  let canRewrite = !readOnly;
  if (lossy.length > 0 && checked.text !== null && !readOnly) {
    const backupPath = keepBackup(path, checked.text, now(), 'backup');
    // Without a backup the repaired version is not written over the user's file (a later change will be).
    canRewrite = backupPath !== null;
    const note = backupPath ? ` (Previous file kept at ${backupPath}.)` : ' (The file could not be backed up, so it is left as it is for now.)';
    for (const w of lossy) warnings.push({ ...w, backupPath, message: `${w.message}${note}` });
  } else {
    warnings.push(...lossy);
  }

  const toFile = (value: Settings) => ({ version: SETTINGS_VERSION, ...value });
  if (canRewrite && !isDeepStrictEqual(raw, toFile(settings))) {
    try {
      backend.write(toFile(settings));
    } catch (error) {
      warnings.push({ kind: 'unreadable', key: null, message: `Settings: could not write ${path} (${(error as Error).message}).`, backupPath: null });
    }
  }

  const listeners = new Set<(settings: Settings) => void>();
  const commit = (next: Settings): Settings => {
    backend.write(toFile(next));
    settings = next;
    for (const listener of listeners) listener(settings);
    return settings;
  };

  return {
    path: backend.path,
    warnings,
    get: () => settings,
    update(patch) {
      const parsed = SettingsPatchSchema.safeParse(patch);
      if (!parsed.success) throw new AppError('bad_request', formatZodError(parsed.error, 'Invalid settings'));
      assertOutputFolder(parsed.data.outputFolder);
      const defined = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
      return commit({ ...settings, ...defined });
    },
    reset: () => commit(structuredClone(DEFAULT_SETTINGS) as Settings),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
