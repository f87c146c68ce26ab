import { copyFileSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../../../shared/errors';
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
import { createConfBackend } from './conf-backend';
import { migrateSettings } from './migrations';
import { repairSettings } from './repair';
import { ensureStateDir } from './state-dir';

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
  /** Defaults to conf; Electron passes the electron-store backend. */
  createBackend?: SettingsBackendFactory;
  /** For backup names; injectable for tests. */
  now?: () => Date;
}

function backupName(path: string, now: Date, tag: string): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${path.replace(/\.json$/, '')}.${tag}-${stamp}.json`;
}

type Preflight = { existed: boolean; warnings: SettingsWarning[]; backupPath: string | null };

/**
 * conf and electron-store throw from their constructors on malformed JSON, so the raw file is checked first: a
 * corrupt one is moved aside (kept as the backup) and the app starts from defaults.
 */
function preflight(path: string, now: Date): Preflight {
  if (!existsSync(path)) return { existed: false, warnings: [], backupPath: null };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const message = `Settings: could not read ${path} (${(error as Error).message}); using defaults for this session.`;
    return { existed: true, warnings: [{ kind: 'unreadable', key: null, message, backupPath: null }], backupPath: null };
  }
  try {
    deserializeSettingsObject(text);
    return { existed: true, warnings: [], backupPath: null };
  } catch (error) {
    const backupPath = backupName(path, now, 'corrupt');
    renameSync(path, backupPath);
    const message = `Settings: ${path} was not valid JSON (${(error as Error).message}); started from defaults. The broken file is kept at ${backupPath}.`;
    return { existed: false, warnings: [{ kind: 'corrupt-file', key: null, message, backupPath }], backupPath };
  }
}

/**
 * Opens `<stateDir>/settings.json`: migrates an older version, repairs what is broken key by key (keeping a
 * backup of the file as it was), and never fails to start for a bad file.
 */
export function openSettingsStore(options: OpenSettingsOptions): SettingsStore {
  const now = options.now ?? (() => new Date());
  ensureStateDir(options.stateDir);
  const path = join(options.stateDir, `${SETTINGS_FILE_NAME}.json`);
  const checked = preflight(path, now());
  const warnings: SettingsWarning[] = [...checked.warnings];
  const readOnly = checked.warnings.some((w) => w.kind === 'unreadable');

  const backend: SettingsBackend = (options.createBackend ?? createConfBackend)(options.stateDir);
  const raw = readOnly ? {} : backend.read();
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
  if (lossy.length > 0 && checked.existed && !readOnly) {
    const backupPath = backupName(path, now(), 'backup');
    copyFileSync(path, backupPath);
    for (const w of lossy) warnings.push({ ...w, backupPath, message: `${w.message} (Previous file kept at ${backupPath}.)` });
  } else {
    warnings.push(...lossy);
  }

  const toFile = (value: Settings) => ({ version: SETTINGS_VERSION, ...value });
  if (!readOnly && !isDeepStrictEqual(raw, toFile(settings))) backend.write(toFile(settings));

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
