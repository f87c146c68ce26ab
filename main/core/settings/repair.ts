import { z } from 'zod';
import { formatZodError } from '../../../shared/validation';
import {
  DEFAULT_SETTINGS,
  SETTINGS_FIELDS,
  SETTINGS_KEYS,
  type Settings,
  type SettingsWarning,
} from '../../../shared/settings/schema';

export interface RepairOutcome {
  settings: Settings;
  warnings: SettingsWarning[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Item-wise for lists (one broken hot folder must not take the others with it), value-wise for the rest. */
function repairList(key: string, list: z.ZodArray, value: unknown, warnings: SettingsWarning[]): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const element = list.element as z.ZodType;
  const kept: unknown[] = [];
  value.forEach((item, index) => {
    const parsed = element.safeParse(item);
    if (parsed.success) kept.push(parsed.data);
    else {
      const id = isRecord(item) && typeof item.id === 'string' ? ` "${item.id}"` : '';
      warnings.push({
        kind: 'invalid-value',
        key: `${key}[${index}]`,
        message: `Settings: removed entry ${index}${id} of "${key}" (${formatZodError(parsed.error)}).`,
        backupPath: null,
      });
    }
  });
  return kept;
}

/**
 * Validates stored data key by key: a missing key takes its default silently, a broken value takes its default with
 * a warning, a broken list entry is dropped with a warning, and keys this version does not know are dropped with a
 * warning. Never throws: whatever the file holds, the app starts.
 */
export function repairSettings(data: Record<string, unknown>): RepairOutcome {
  const warnings: SettingsWarning[] = [];
  const settings: Record<string, unknown> = {};
  for (const key of SETTINGS_KEYS) {
    // Every field is `inner.default(…)`; the inner type tells lists apart.
    const schema = SETTINGS_FIELDS[key] as unknown as z.ZodDefault<z.ZodType>;
    const value = data[key];
    if (value === undefined) {
      settings[key] = structuredClone(DEFAULT_SETTINGS[key]);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      settings[key] = parsed.data;
      continue;
    }
    const inner = schema.unwrap();
    const list = inner instanceof z.ZodArray ? repairList(key, inner, value, warnings) : undefined;
    if (list) {
      settings[key] = list;
      continue;
    }
    settings[key] = structuredClone(DEFAULT_SETTINGS[key]);
    warnings.push({
      kind: 'invalid-value',
      key,
      message: `Settings: "${key}" was invalid (${formatZodError(parsed.error)}); using the default ${JSON.stringify(DEFAULT_SETTINGS[key])}.`,
      backupPath: null,
    });
  }
  for (const key of Object.keys(data)) {
    if (key in SETTINGS_FIELDS) continue;
    const value = data[key];
    const looksSecret = /api.?key|token|secret|password/i.test(key) || (typeof value === 'string' && /\bsk_(live|test)_/.test(value));
    const message = looksSecret
      ? `Settings: ignored "${key}": Batchroom never reads API keys from this file; store the key with \`batchroom key set\` or in Settings (it goes to the OS keychain).`
      : `Settings: ignored unknown key "${key}".`;
    warnings.push({ kind: 'unknown-key', key, message, backupPath: null });
  }
  return { settings: settings as Settings, warnings };
}
