import type { ImageField, InputSchema, SwitchField, TextField } from '../../../../shared/service/model';
import { shapeError } from '../errors';
import type { NormalizeContext } from './context';
import { normalizeOptionList } from './options';
import { canonicalKey, isRecord, keysOf, pick, pickValue, toBool, toNumber, toText, type WireRecord } from './wire';

type FieldKind = 'image' | 'text' | 'switch';

/** Where a workflow record keeps its input schema. */
export const SCHEMA_KEYS = ['inputSchema', 'schema', 'inputs', 'inputFields', 'fields', 'parameters', 'params'];
const GROUP_KEYS: Record<FieldKind, string[]> = {
  image: ['imageFields', 'imageInputs', 'images', 'image'],
  text: ['textFields', 'textInputs', 'texts', 'text'],
  switch: ['switchFields', 'switchSelections', 'switches', 'selectionFields', 'selections', 'switch'],
};
const FLAT_LIST_KEYS = ['fields', 'inputs', 'items', 'parameters', 'params', 'properties'];
const TYPE_KEYS = ['type', 'kind', 'fieldType', 'inputType', 'category'];

// Type discriminators of a flat field list. 'select'/'dropdown' are read as a text field with presets (one string
// value), 'selection'/'radio'/checkbox-like types as switch fields (an array of option ids).
const KIND_BY_TYPE: Record<string, FieldKind> = Object.fromEntries([
  ...['image', 'images', 'img', 'photo', 'picture', 'file', 'upload', 'imageurl', 'imageinput', 'media'].map((t) => [t, 'image']),
  ...['text', 'texts', 'string', 'str', 'textarea', 'prompt', 'preset', 'presets', 'select', 'dropdown', 'enum', 'textinput', 'textfield'].map((t) => [t, 'text']),
  ...['switch', 'switches', 'toggle', 'checkbox', 'checkboxes', 'multiselect', 'selection', 'selections', 'radio', 'boolean', 'bool',
    'choice', 'choices', 'multichoice', 'singleselect', 'switchselection', 'switchfield', 'selectionfield'].map((t) => [t, 'switch']),
]) as Record<string, FieldKind>;
const SINGLE_CHOICE_TYPES = new Set(['radio', 'singleselect', 'single', 'singlechoice']);

function kindOfType(type: string): FieldKind | undefined {
  const canonical = canonicalKey(type);
  const exact = KIND_BY_TYPE[canonical] ?? KIND_BY_TYPE[canonical.replace(/field$/, '')];
  if (exact) return exact;
  if (/image|photo|picture/.test(canonical)) return 'image';
  if (/switch|toggle|check|multi|radio|selection/.test(canonical)) return 'switch';
  if (/text|string|prompt/.test(canonical)) return 'text';
  return undefined;
}

/** Field entries as a list, or as a map `{fieldId: {...}}` (the id then comes from the key), or as bare ids. */
function entriesOf(raw: unknown): WireRecord[] | undefined {
  if (Array.isArray(raw)) return raw.map((item) => (isRecord(item) ? item : { id: item }));
  if (isRecord(raw)) {
    return Object.entries(raw).map(([id, value]) => (isRecord(value) ? { id, ...value } : { id, label: value }));
  }
  return undefined;
}

function fieldId(ctx: NormalizeContext, raw: WireRecord, kind: string): string {
  const id = toText(pickValue(raw, ['id', 'fieldId', 'key', 'name', 'slug']));
  if (id === undefined) throw shapeError(ctx.endpoint, `a ${kind} field has no id`, keysOf(raw));
  return id;
}

function common(ctx: NormalizeContext, raw: WireRecord, kind: FieldKind, requiredByDefault: boolean) {
  const id = fieldId(ctx, raw, kind);
  const label = toText(pickValue(raw, ['label', 'title', 'displayName', 'name'])) ?? id;
  const description = toText(pickValue(raw, ['description', 'help', 'helpText', 'hint', 'placeholder']));
  const requiredFlag = toBool(pickValue(raw, ['required', 'isRequired', 'mandatory']));
  const optionalFlag = toBool(pickValue(raw, ['optional', 'isOptional']));
  const required = requiredFlag ?? (optionalFlag === undefined ? requiredByDefault : !optionalFlag);
  return { id, label, ...(description ? { description } : {}), required };
}

function imageField(ctx: NormalizeContext, raw: WireRecord): ImageField {
  return common(ctx, raw, 'image', true);
}

function textField(ctx: NormalizeContext, raw: WireRecord): TextField {
  const base = common(ctx, raw, 'text', false);
  const field: TextField = { ...base };
  const presets = normalizeOptionList(pickValue(raw, ['presetOptions', 'presets', 'options', 'choices', 'enum', 'allowedValues']));
  if (presets && presets.length > 0) field.presetOptions = presets;
  const defaultValue = toText(pickValue(raw, ['defaultValue', 'default', 'defaultOption']));
  if (defaultValue !== undefined) field.defaultValue = defaultValue;
  const maxLength = toNumber(pickValue(raw, ['maxLength', 'maxChars', 'maxLen', 'maxCharacters']));
  if (maxLength !== undefined && Number.isInteger(maxLength) && maxLength > 0) field.maxLength = maxLength;
  return field;
}

function multipleOf(raw: WireRecord, type: string | undefined): boolean {
  const multiple = toBool(pickValue(raw, ['multiple', 'multi', 'multiSelect', 'allowMultiple', 'isMultiple', 'multiselect']));
  if (multiple !== undefined) return multiple;
  const single = toBool(pickValue(raw, ['single', 'singleSelect', 'singleChoice', 'exclusive']));
  if (single !== undefined) return !single;
  const max = toNumber(pickValue(raw, ['maxSelections', 'maxSelected', 'maxItems', 'maxChoices', 'max']));
  if (max !== undefined) return max !== 1;
  const mode = toText(pickValue(raw, ['selectionType', 'selectionMode', 'mode']));
  if (mode !== undefined) {
    const m = canonicalKey(mode);
    if (m.startsWith('single') || m === 'one' || m === 'radio') return false;
    if (m.startsWith('multi') || m === 'many') return true;
  }
  return !(type !== undefined && SINGLE_CHOICE_TYPES.has(canonicalKey(type)));
}

function switchField(ctx: NormalizeContext, raw: WireRecord, type?: string): SwitchField {
  const base = common(ctx, raw, 'switch', false);
  const options = normalizeOptionList(pickValue(raw, ['options', 'choices', 'values', 'items', 'presetOptions', 'enum']));
  if (!options || options.length === 0) {
    throw shapeError(ctx.endpoint, `switch field "${base.id}" lists no options`, keysOf(raw));
  }
  const field: SwitchField = { ...base, options, multiple: multipleOf(raw, type) };
  const rawDefault = pickValue(raw, ['defaultSelection', 'defaultSelections', 'defaults', 'default', 'defaultValue', 'selected']);
  const defaults = Array.isArray(rawDefault) ? rawDefault.map(toText) : [toText(rawDefault)];
  const defaultSelection = defaults.filter((d): d is string => d !== undefined);
  if (defaultSelection.length > 0) field.defaultSelection = defaultSelection;
  const min = toNumber(pickValue(raw, ['minSelections', 'minSelected', 'minItems', 'minChoices']));
  const max = toNumber(pickValue(raw, ['maxSelections', 'maxSelected', 'maxItems', 'maxChoices']));
  if (min !== undefined && Number.isInteger(min) && min >= 0) field.minSelections = min;
  // A single-choice field already says "at most one"; keep the bound only where it adds something.
  if (max !== undefined && Number.isInteger(max) && max > 0 && (field.multiple || max !== 1)) field.maxSelections = max;
  return field;
}

function build(ctx: NormalizeContext, kind: FieldKind, raw: WireRecord, type?: string, into?: InputSchema): InputSchema {
  const schema = into ?? { imageFields: [], textFields: [], switchFields: [] };
  if (kind === 'image') schema.imageFields.push(imageField(ctx, raw));
  else if (kind === 'text') schema.textFields.push(textField(ctx, raw));
  else schema.switchFields.push(switchField(ctx, raw, type));
  return schema;
}

function fromFlatList(ctx: NormalizeContext, entries: WireRecord[]): InputSchema {
  const schema: InputSchema = { imageFields: [], textFields: [], switchFields: [] };
  for (const entry of entries) {
    const type = toText(pickValue(entry, TYPE_KEYS));
    const kind = type === undefined ? undefined : kindOfType(type);
    if (!kind) {
      const id = toText(pickValue(entry, ['id', 'fieldId', 'key', 'name'])) ?? '?';
      const what = type === undefined ? 'has no type' : `has the unknown type "${type}"`;
      throw shapeError(ctx.endpoint, `input field "${id}" ${what}`, keysOf(entry));
    }
    build(ctx, kind, entry, type, schema);
  }
  return schema;
}

// On the workflow record itself only the unmistakable group names count: `images` there may be preview pictures.
const STRICT_GROUP_KEYS: Record<FieldKind, string[]> = { image: ['imageFields'], text: ['textFields'], switch: ['switchFields'] };

function hasGroups(record: WireRecord, strict = false): boolean {
  const groups = strict ? STRICT_GROUP_KEYS : GROUP_KEYS;
  return (Object.keys(groups) as FieldKind[]).some((kind) => {
    const value = pickValue(record, groups[kind]);
    return Array.isArray(value) || isRecord(value);
  });
}

function fromGroups(ctx: NormalizeContext, record: WireRecord): InputSchema {
  const schema: InputSchema = { imageFields: [], textFields: [], switchFields: [] };
  for (const kind of Object.keys(GROUP_KEYS) as FieldKind[]) {
    const found = pick(record, GROUP_KEYS[kind]);
    if (!found) continue;
    const entries = entriesOf(found.value);
    if (!entries) throw shapeError(ctx.endpoint, `the ${kind} fields ("${found.key}") are neither a list nor a map`, keysOf(record));
    for (const entry of entries) build(ctx, kind, entry, toText(pickValue(entry, TYPE_KEYS)), schema);
  }
  return schema;
}

/**
 * The input schema of a workflow record: grouped by kind (`{imageFields, textFields, switchFields}` in any
 * spelling), or one flat list (or id-keyed map) of fields with a type discriminator.
 */
export function normalizeInputSchema(ctx: NormalizeContext, workflow: WireRecord): InputSchema {
  const found = pick(workflow, SCHEMA_KEYS);
  // Some services put the groups straight on the workflow record.
  const raw = found ? found.value : hasGroups(workflow, true) ? workflow : undefined;
  if (raw === undefined) throw shapeError(ctx.endpoint, 'no input schema found', keysOf(workflow));
  if (Array.isArray(raw)) return fromFlatList(ctx, entriesOf(raw) ?? []);
  if (!isRecord(raw)) throw shapeError(ctx.endpoint, 'the input schema is not an object or a list', keysOf(workflow));
  if (hasGroups(raw)) return fromGroups(ctx, raw);
  const flat = pick(raw, FLAT_LIST_KEYS);
  if (flat && (Array.isArray(flat.value) || isRecord(flat.value))) return fromFlatList(ctx, entriesOf(flat.value) ?? []);
  // An id-keyed map of typed fields: `{photo: {type: 'image'}, style: {type: 'text'}}`.
  const entries = entriesOf(raw) ?? [];
  if (entries.length > 0 && entries.every((e) => pickValue(e, TYPE_KEYS) !== undefined)) return fromFlatList(ctx, entries);
  if (entries.length === 0) return { imageFields: [], textFields: [], switchFields: [] };
  throw shapeError(ctx.endpoint, 'the input schema has no image, text or switch fields', keysOf(raw));
}
