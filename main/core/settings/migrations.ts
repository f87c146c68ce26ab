import { SETTINGS_VERSION } from '../../../shared/settings/schema';

type Raw = Record<string, unknown>;

/** Upgrades data stored at version `from` to version `from + 1`; returns what it changed, for people. */
type Migration = (data: Raw) => { data: Raw; notes: string[] };

/**
 * Version 1 was written by the 0.0.x previews, before the file carried a version number. Its keys:
 *   apiUrl → serviceUrl              useSandbox (boolean) → sandboxMode ('always' | 'auto')
 *   parallelism → concurrency        outputDir → outputFolder
 *   filenamePattern → namingTemplate (tokens {basename} → {name}, {extension} → {ext})
 *   onCollision ('rename' | 'skip' | 'replace') → collisionPolicy ('suffix' | 'skip' | 'overwrite')
 *   darkMode (boolean | null) → theme ('dark' | 'light' | 'system')
 *   watchFolders → hotFolders
 * A value already present under its new name wins (a hand-edited file may carry both).
 */
const v1ToV2: Migration = (input) => {
  const data: Raw = { ...input };
  const notes: string[] = [];
  const move = (from: string, to: string, convert: (value: unknown) => unknown = (v) => v) => {
    if (!(from in data)) return;
    const value = data[from];
    delete data[from];
    if (to in data) {
      notes.push(`dropped old "${from}" (the file already has "${to}")`);
      return;
    }
    data[to] = convert(value);
    notes.push(`renamed "${from}" to "${to}"`);
  };
  move('apiUrl', 'serviceUrl');
  move('useSandbox', 'sandboxMode', (v) => (v === true ? 'always' : v === false ? 'auto' : v));
  move('parallelism', 'concurrency');
  move('outputDir', 'outputFolder');
  move('filenamePattern', 'namingTemplate', (v) =>
    typeof v === 'string' ? v.replaceAll('{basename}', '{name}').replaceAll('{extension}', '{ext}') : v,
  );
  move('onCollision', 'collisionPolicy', (v) => ({ rename: 'suffix', replace: 'overwrite' })[String(v)] ?? v);
  move('darkMode', 'theme', (v) => (v === true ? 'dark' : v === false ? 'light' : v === null ? 'system' : v));
  move('watchFolders', 'hotFolders');
  return { data, notes };
};

/** Keyed by the version a migration starts from. Every SETTINGS_VERSION bump adds one entry. */
export const MIGRATIONS: Readonly<Record<number, Migration>> = { 1: v1ToV2 };

export interface MigrationOutcome {
  data: Raw;
  /** The version the file claimed (1 when it had none). */
  fromVersion: number;
  /** False when the file comes from a newer Batchroom: it is read as-is, keys this version knows. */
  understood: boolean;
  notes: string[];
}

/** Reads the `version` field (absent or unusable: 1, the unversioned previews) and applies each step up to now. */
export function migrateSettings(raw: Raw): MigrationOutcome {
  const { version, ...rest } = raw;
  const fromVersion = typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1;
  if (fromVersion > SETTINGS_VERSION) return { data: rest, fromVersion, understood: false, notes: [] };
  let data: Raw = rest;
  const notes: string[] = [];
  for (let v = fromVersion; v < SETTINGS_VERSION; v += 1) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`No settings migration from version ${v} (a SETTINGS_VERSION bump without a migration).`);
    const result = step(data);
    data = result.data;
    notes.push(...result.notes);
  }
  return { data, fromVersion, understood: true, notes };
}
