import type { FieldOption } from '../../../../shared/service/model';
import { isRecord, pickValue, toText } from './wire';

const OPTION_ID_KEYS = ['id', 'value', 'key', 'optionId', 'slug', 'code'];
const OPTION_LABEL_KEYS = ['label', 'name', 'title', 'displayName', 'text', 'description'];

/** An option given as a string/number (`"vivid"`) or an object (`{id|value, label|name}`). */
export function normalizeOption(raw: unknown): FieldOption | undefined {
  const plain = toText(raw);
  if (plain !== undefined) return { id: plain, label: plain };
  if (!isRecord(raw)) return undefined;
  const id = toText(pickValue(raw, OPTION_ID_KEYS)) ?? toText(pickValue(raw, ['label', 'name']));
  if (id === undefined) return undefined;
  const label = toText(pickValue(raw, OPTION_LABEL_KEYS)) ?? id;
  return { id, label };
}

/**
 * Options as a list of strings/objects, or as a map `{id: label}` / `{id: {label}}`. Returns undefined when the value
 * is not a list or map of options at all; entries that carry no id are dropped.
 */
export function normalizeOptionList(raw: unknown): FieldOption[] | undefined {
  if (Array.isArray(raw)) {
    return raw.map(normalizeOption).filter((o): o is FieldOption => o !== undefined);
  }
  if (isRecord(raw)) {
    const out: FieldOption[] = [];
    for (const [id, value] of Object.entries(raw)) {
      if (isRecord(value)) {
        const option = normalizeOption({ id, ...value });
        if (option) out.push({ ...option, id });
      } else {
        out.push({ id, label: toText(value) ?? id });
      }
    }
    return out;
  }
  return undefined;
}
