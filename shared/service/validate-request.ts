import { ASPECT_RATIOS, IMAGE_SIZES, type ExecuteRequest, type WorkflowDetail, type WorkflowParameters } from './model';

// Local validation of an execute request against the workflow's input schema, run by the service client before
// anything is sent (a user never pays for a request the service would reject) and by the renderer for inline hints.
// Problems name the field by the same dotted path the service uses: `images.photo`, `texts.style`,
// `switchSelections.effects`, `globalOverrides.aspectRatio`.

export interface RequestProblem {
  field: string;
  message: string;
}

export type RequestValidation = { ok: true } | { ok: false; problems: RequestProblem[] };

// Only the prefix of a data URL is checked: scanning megabytes of base64 on every keystroke would be wasteful.
const IMAGE_URL = /^https?:\/\/[^\s/]+\S*$/i;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,./i;

// Tabs and newlines are fine in free text; other control characters are not.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 8).join(', ');
  return ids.length > 8 ? `${shown}, …` : shown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The common first step of every field map (`texts`, `switchSelections`): it must be an object, and every key must
 * name a field of that kind. Returns the map and the entries whose field is known, or null when the map is unusable.
 */
function knownEntries<F extends { id: string }>(
  workflow: WorkflowDetail, section: string, kind: string, expected: string, fields: readonly F[], input: unknown, problems: RequestProblem[],
): { values: Record<string, unknown>; entries: { field: F; value: unknown; path: string }[] } | null {
  if (input !== undefined && !isPlainObject(input)) {
    problems.push({ field: section, message: `must map ${kind} field ids to ${expected}` });
    return null;
  }
  const values = input ?? {};
  const byId = new Map(fields.map((f) => [f.id, f]));
  const entries: { field: F; value: unknown; path: string }[] = [];
  for (const [id, value] of Object.entries(values)) {
    const field = byId.get(id);
    const path = `${section}.${id}`;
    if (field) entries.push({ field, value, path });
    else problems.push({ field: path, message: `is not a ${kind} field of "${workflow.name}" (expected: ${listIds([...byId.keys()]) || 'none'})` });
  }
  return { values, entries };
}

function checkImages(workflow: WorkflowDetail, images: unknown, problems: RequestProblem[]): void {
  const fields = workflow.inputSchema.imageFields;
  if (!isPlainObject(images)) {
    problems.push({ field: 'images', message: 'must map image field ids to images' });
    return;
  }
  const known = new Set(fields.map((f) => f.id));
  for (const [id, value] of Object.entries(images)) {
    if (!known.has(id)) {
      problems.push({ field: `images.${id}`, message: `is not an image field of "${workflow.name}" (expected: ${listIds([...known]) || 'none'})` });
    } else if (typeof value !== 'string' || !(IMAGE_URL.test(value) || DATA_URL.test(value))) {
      problems.push({ field: `images.${id}`, message: 'must be an http(s) URL or a base64 data URL' });
    }
  }
  for (const field of fields) {
    if (field.required && (images[field.id] === undefined || images[field.id] === '')) {
      problems.push({ field: `images.${field.id}`, message: `"${field.label}" needs an image` });
    }
  }
  if (Object.keys(images).length === 0 && fields.length > 0 && !problems.some((p) => p.field.startsWith('images'))) {
    problems.push({ field: 'images', message: 'must name at least one image field' });
  }
}

function checkTexts(workflow: WorkflowDetail, texts: unknown, problems: RequestProblem[]): void {
  const fields = workflow.inputSchema.textFields;
  const known = knownEntries(workflow, 'texts', 'text', 'strings', fields, texts, problems);
  if (!known) return;
  const { values } = known;
  for (const { field, value, path } of known.entries) {
    if (typeof value !== 'string') {
      problems.push({ field: path, message: 'must be a string' });
    } else if (field.presetOptions && !field.presetOptions.some((o) => o.id === value)) {
      problems.push({ field: path, message: `${quote(value)} is not one of the options of "${field.label}" (${listIds(field.presetOptions.map((o) => o.id))})` });
    } else if (field.maxLength !== undefined && [...value].length > field.maxLength) {
      problems.push({ field: path, message: `is longer than ${field.maxLength} characters` });
    } else if (!field.presetOptions && CONTROL_CHARS.test(value)) {
      problems.push({ field: path, message: 'contains control characters' });
    }
  }
  for (const field of fields) {
    const value = values[field.id];
    // A default does not excuse a missing required value: the service may not apply defaults to required fields.
    if (field.required && (value === undefined || (typeof value === 'string' && value.trim() === ''))) {
      problems.push({ field: `texts.${field.id}`, message: `"${field.label}" is required` });
    }
  }
}

function checkSwitches(workflow: WorkflowDetail, selections: unknown, problems: RequestProblem[]): void {
  const fields = workflow.inputSchema.switchFields;
  const known = knownEntries(workflow, 'switchSelections', 'switch', 'lists of option ids', fields, selections, problems);
  if (!known) return;
  const { values } = known;
  for (const { field, value, path } of known.entries) {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      problems.push({ field: path, message: 'must be a list of option ids' });
      continue;
    }
    const allowed = new Set(field.options.map((o) => o.id));
    const unknown = value.filter((v) => !allowed.has(v));
    if (unknown.length > 0) {
      problems.push({ field: path, message: `${unknown.map(quote).join(', ')} ${unknown.length === 1 ? 'is not an option' : 'are not options'} of "${field.label}" (${listIds([...allowed])})` });
    } else if (!field.multiple && new Set(value).size > 1) {
      problems.push({ field: path, message: `"${field.label}" allows only one choice` });
    } else {
      const count = new Set(value).size;
      const { minSelections: min, maxSelections: max } = field;
      // An empty list is judged by the required check below; any other count must respect the stated bounds.
      if ((min !== undefined && count > 0 && count < min) || (max !== undefined && count > max)) {
        problems.push({ field: path, message: `"${field.label}" takes ${describeBounds(min, max)} (got ${count})` });
      }
    }
  }
  for (const field of fields) {
    const value = values[field.id];
    const missing = value === undefined ? field.defaultSelection === undefined || field.defaultSelection.length === 0 : Array.isArray(value) && value.length === 0;
    if (field.required && missing) {
      problems.push({ field: `switchSelections.${field.id}`, message: `"${field.label}" needs a choice` });
    }
  }
}

function checkOverrides(overrides: unknown, problems: RequestProblem[]): void {
  if (overrides === undefined) return;
  if (!isPlainObject(overrides)) {
    problems.push({ field: 'globalOverrides', message: 'must be an object' });
    return;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (key === 'aspectRatio') {
      if (!(ASPECT_RATIOS as readonly unknown[]).includes(value)) {
        problems.push({ field: 'globalOverrides.aspectRatio', message: `must be one of ${ASPECT_RATIOS.join(', ')} (got ${quote(value)})` });
      }
    } else if (key === 'imageSize') {
      if (!(IMAGE_SIZES as readonly unknown[]).includes(value)) {
        problems.push({ field: 'globalOverrides.imageSize', message: `must be one of ${IMAGE_SIZES.join(', ')} (got ${quote(value)})` });
      }
    } else {
      problems.push({ field: `globalOverrides.${key}`, message: 'is not an override the service knows (aspectRatio, imageSize)' });
    }
  }
}

/** Everything but the images: what a batch applies to every item (the renderer checks its settings form with this). */
export function validateWorkflowParameters(workflow: WorkflowDetail, parameters: WorkflowParameters): RequestValidation {
  const problems: RequestProblem[] = [];
  checkTexts(workflow, parameters.texts, problems);
  checkSwitches(workflow, parameters.switchSelections, problems);
  checkOverrides(parameters.globalOverrides, problems);
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

export function validateExecuteRequest(workflow: WorkflowDetail, request: ExecuteRequest): RequestValidation {
  const problems: RequestProblem[] = [];
  checkImages(workflow, (request as { images?: unknown }).images, problems);
  const rest = validateWorkflowParameters(workflow, request);
  if (!rest.ok) problems.push(...rest.problems);
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

function describeBounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} options` : `between ${min} and ${max} options`;
  if (min !== undefined) return `at least ${min} options`;
  return `at most ${max ?? 0} options`;
}
