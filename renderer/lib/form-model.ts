import type {
  AspectRatio, ImageSize, SwitchField, WorkflowDetail, WorkflowParameters,
} from '../../shared/service/model';
import { validateWorkflowParameters } from '../../shared/service/validate-request';
import { tr } from '../i18n/active';

/** What the generated form holds for one workflow. Images: one field takes the batch, others a fixed file. */
export interface FormState {
  workflowId: string;
  texts: Record<string, string>;
  switches: Record<string, string[]>;
  aspectRatio: AspectRatio | null;
  imageSize: ImageSize | null;
  /** The image field every dropped photo goes to. */
  batchField: string | null;
  /** Image fields filled with the same file for every item (e.g. a backdrop). */
  fixedImages: Record<string, string>;
  /** Errors are shown once the user tried to continue, not while they are still typing. */
  showErrors: boolean;
}

export type FormErrors = Record<string, string>;


/**
 * The form key (`text:style`) of a field path as main or the service names it (`texts.style`,
 * `parameters.switchSelections.look`, `images.photo`), or null when the path is not one of the form's inputs.
 */
export function formKeyOf(path: string): string | null {
  const parts = path.split('.');
  while (parts.length > 2 && (parts[0] === 'spec' || parts[0] === 'parameters')) parts.shift();
  const [group, id] = parts;
  if (!id) return null;
  if (group === 'texts') return `text:${id}`;
  if (group === 'switchSelections' || group === 'switches') return `switch:${id}`;
  if (group === 'images') return `image:${id}`;
  return null;
}

/** The dotted path (`texts.style`) of a form key (`text:style`), as main names fields: the inverse of formKeyOf. */
export function fieldPathOf(key: string): string {
  const [kind, id] = key.split(/:(.*)/s) as [string, string | undefined];
  const group = kind === 'text' ? 'texts' : kind === 'switch' ? 'switchSelections' : kind === 'image' ? 'images' : null;
  return group && id ? `${group}.${id}` : id ?? key;
}

export function initialForm(detail: WorkflowDetail): FormState {
  const texts: Record<string, string> = {};
  for (const field of detail.inputSchema.textFields) {
    texts[field.id] = field.defaultValue ?? (field.presetOptions && field.required ? field.presetOptions[0]?.id ?? '' : '');
  }
  const switches: Record<string, string[]> = {};
  for (const field of detail.inputSchema.switchFields) switches[field.id] = [...(field.defaultSelection ?? [])];
  return {
    workflowId: detail.id, texts, switches, aspectRatio: null, imageSize: null,
    batchField: detail.inputSchema.imageFields[0]?.id ?? null, fixedImages: {}, showErrors: false,
  };
}

export function toggleOption(field: SwitchField, current: readonly string[], optionId: string): string[] {
  if (current.includes(optionId)) return current.filter((id) => id !== optionId);
  if (!field.multiple) return [optionId];
  // Keep the schema's option order so the request is stable whatever order the user clicked in.
  const next = new Set([...current, optionId]);
  return field.options.map((o) => o.id).filter((id) => next.has(id));
}

/** Inline validation before anything is spent: the same rules the service applies, in plain words. */
export function validateForm(detail: WorkflowDetail, form: FormState): FormErrors {
  const errors: FormErrors = {};
  const { imageFields, textFields, switchFields } = detail.inputSchema;
  for (const field of imageFields) {
    if (field.id === form.batchField) continue;
    if (field.required && !form.fixedImages[field.id]) errors[`image:${field.id}`] = tr('lib', 'form.addPhotoFor', { field: field.label });
  }
  for (const field of textFields) {
    const value = form.texts[field.id] ?? '';
    if (field.required && value.trim() === '') errors[`text:${field.id}`] = tr('lib', 'form.required', { field: field.label });
    else if (value && field.presetOptions && !field.presetOptions.some((o) => o.id === value)) {
      errors[`text:${field.id}`] = tr('lib', 'form.chooseListed', { field: field.label });
    } else if (field.maxLength !== undefined && value.length > field.maxLength) {
      errors[`text:${field.id}`] = tr('lib', 'form.tooLong', { field: field.label, length: value.length, max: field.maxLength });
    }
  }
  for (const field of switchFields) {
    const chosen = form.switches[field.id] ?? [];
    const min = field.minSelections ?? (field.required ? 1 : 0);
    const max = field.maxSelections ?? (field.multiple ? field.options.length : 1);
    if (chosen.length < min) errors[`switch:${field.id}`] = min === 1
      ? tr('lib', 'form.chooseAtLeastOne', { field: field.label.toLowerCase() }) : tr('lib', 'form.chooseAtLeast', { min, field: field.label });
    else if (chosen.length > max) errors[`switch:${field.id}`] = tr('lib', 'form.chooseAtMost', { max, field: field.label });
  }
  // The service client's own check is the authority: anything it would refuse is flagged here too, so a batch
  // never starts with parameters that every item would fail on.
  const shared = validateWorkflowParameters(detail, toParameters(detail, form));
  if (!shared.ok) {
    for (const problem of shared.problems) {
      const id = problem.field.split('.')[1];
      errors[formKeyOf(problem.field) ?? `form:${problem.field}`] ??= `${id ?? problem.field}: ${problem.message}`;
    }
  }
  return errors;
}

/** The parameters every item of the batch is executed with (images are added per item by the engine). */
export function toParameters(detail: WorkflowDetail, form: FormState): WorkflowParameters {
  const texts: Record<string, string> = {};
  for (const field of detail.inputSchema.textFields) {
    const value = form.texts[field.id];
    if (value !== undefined && value !== '') texts[field.id] = value;
  }
  const switchSelections: Record<string, string[]> = {};
  for (const field of detail.inputSchema.switchFields) switchSelections[field.id] = form.switches[field.id] ?? [];
  const params: WorkflowParameters = {};
  if (Object.keys(texts).length > 0) params.texts = texts;
  if (Object.keys(switchSelections).length > 0) params.switchSelections = switchSelections;
  if (form.aspectRatio || form.imageSize) {
    params.globalOverrides = {
      ...(form.aspectRatio ? { aspectRatio: form.aspectRatio } : {}),
      ...(form.imageSize ? { imageSize: form.imageSize } : {}),
    };
  }
  return params;
}

/** Restores a form from parameters (re-running rejected items starts from what they were made with). */
export function formFromParameters(detail: WorkflowDetail, params: WorkflowParameters): FormState {
  const base = initialForm(detail);
  return {
    ...base,
    texts: { ...base.texts, ...(params.texts ?? {}) },
    switches: { ...base.switches, ...(params.switchSelections ?? {}) },
    aspectRatio: params.globalOverrides?.aspectRatio ?? null,
    imageSize: params.globalOverrides?.imageSize ?? null,
  };
}
