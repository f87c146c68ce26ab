import { z } from 'zod';
import { ASPECT_RATIOS, IMAGE_SIZES } from '../../shared/service/model';
import { SandboxError, validationError } from './errors';
import { DEFAULT_IMAGE_SIZE, type OutputSpec } from './imaging/output-size';
import type { SandboxLimits } from './options';
import type { WorkflowDefinition } from './workflow-types';

// Execute-request validation. Envelope types are checked with zod (strict: an unknown top-level key is a typo the
// client wants to hear about), then the values are checked against the workflow's input schema. Every failure is a
// 422 naming the field as a dotted path, e.g. `texts.look` or `globalOverrides.aspectRatio`.

const RequestSchema = z.strictObject({
  images: z.record(z.string(), z.string()),
  texts: z.record(z.string(), z.string()).optional(),
  switchSelections: z.record(z.string(), z.array(z.string())).optional(),
  globalOverrides: z
    .strictObject({ aspectRatio: z.enum(ASPECT_RATIOS).optional(), imageSize: z.enum(IMAGE_SIZES).optional() })
    .optional(),
});

export interface ValidatedRequest {
  /** Image field id → data URL or http(s) URL, not yet fetched. */
  images: Record<string, string>;
  texts: Record<string, string>;
  switches: Record<string, string[]>;
  output: OutputSpec;
}

function envelopeError(issue: z.core.$ZodIssue): SandboxError {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const field = [...path, issue.keys[0] ?? ''].join('.');
    return validationError(field, `unknown field "${field}"`);
  }
  const field = path.join('.') || 'images';
  if (issue.code === 'invalid_value') {
    return validationError(field, `${field} must be one of ${issue.values.join(', ')}`, { allowed: issue.values });
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return validationError(field, `${field} is required`);
  return validationError(field, `${field}: ${issue.message}`);
}

// Tabs and newlines are fine in a caption; other C0 controls and DEL are not.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

export function validateExecuteRequest(body: unknown, workflow: WorkflowDefinition, limits: SandboxLimits): ValidatedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SandboxError(400, 'invalid_body', 'the request body must be a JSON object');
  }
  const parsed = RequestSchema.safeParse(body);
  if (!parsed.success) throw envelopeError(parsed.error.issues[0]!);
  const request = parsed.data;
  const schema = workflow.inputSchema;

  const images: Record<string, string> = {};
  for (const [id, value] of Object.entries(request.images)) {
    if (!schema.imageFields.some((field) => field.id === id)) {
      throw validationError(`images.${id}`, `unknown image field "${id}"; this workflow takes ${schema.imageFields.map((f) => f.id).join(', ')}`);
    }
    images[id] = value;
  }
  for (const field of schema.imageFields) {
    if (field.required && !images[field.id]) throw validationError(`images.${field.id}`, `image field "${field.id}" is required`);
  }

  const texts: Record<string, string> = {};
  const sentTexts = request.texts ?? {};
  for (const id of Object.keys(sentTexts)) {
    if (!schema.textFields.some((field) => field.id === id)) throw validationError(`texts.${id}`, `unknown text field "${id}"`);
  }
  for (const field of schema.textFields) {
    const path = `texts.${field.id}`;
    const value = sentTexts[field.id];
    if (value === undefined) {
      if (field.required) throw validationError(path, `text field "${field.id}" is required`);
      if (field.defaultValue !== undefined) texts[field.id] = field.defaultValue;
      continue;
    }
    if (field.presetOptions) {
      const allowed = field.presetOptions.map((option) => option.id);
      if (!allowed.includes(value)) throw validationError(path, `"${value}" is not one of the preset options of "${field.id}"`, { allowed });
    } else {
      const maxLength = Math.min(field.maxLength ?? limits.maxTextLength, limits.maxTextLength);
      if (field.required && value.trim() === '') throw validationError(path, `text field "${field.id}" must not be empty`);
      if ([...value].length > maxLength) throw validationError(path, `text field "${field.id}" is longer than ${maxLength} characters`, { maxLength });
      if (CONTROL_CHARS.test(value)) throw validationError(path, `text field "${field.id}" contains control characters`);
    }
    texts[field.id] = value;
  }

  const switches: Record<string, string[]> = {};
  const sentSwitches = request.switchSelections ?? {};
  for (const id of Object.keys(sentSwitches)) {
    if (!schema.switchFields.some((field) => field.id === id)) throw validationError(`switchSelections.${id}`, `unknown switch field "${id}"`);
  }
  for (const field of schema.switchFields) {
    const path = `switchSelections.${field.id}`;
    const sent = sentSwitches[field.id];
    const chosen = sent === undefined ? field.defaultSelection : [...new Set(sent)];
    const allowed = field.options.map((option) => option.id);
    const unknown = chosen.find((option) => !allowed.includes(option));
    if (unknown !== undefined) throw validationError(path, `"${unknown}" is not an option of "${field.id}"`, { allowed });
    if (chosen.length < field.minSelections || chosen.length > field.maxSelections) {
      throw validationError(path, `"${field.id}" takes between ${field.minSelections} and ${field.maxSelections} options (got ${chosen.length})`, {
        minSelections: field.minSelections, maxSelections: field.maxSelections,
      });
    }
    switches[field.id] = chosen;
  }

  const overrides = request.globalOverrides ?? {};
  const output: OutputSpec = { imageSize: overrides.imageSize ?? DEFAULT_IMAGE_SIZE };
  if (overrides.aspectRatio) output.aspectRatio = overrides.aspectRatio;
  return { images, texts, switches, output };
}
