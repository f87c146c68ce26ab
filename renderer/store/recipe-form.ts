import { DEFAULT_JPEG_QUALITY, sidecarKindOf, type OutputOptions } from '../../shared/engine/model';
import type { DeliverableDraft } from '../../shared/ipc/channels/recipes';
import type { RecipePaidParts } from '../../shared/recipes/fingerprint';
import type { Recipe } from '../../shared/recipes/recipe';
import { describeDrift, recipeDrift } from '../../shared/recipes/recipe-seen';
import type { WorkflowDetail, WorkflowParameters } from '../../shared/service/model';
import type { Settings } from '../../shared/settings/schema';
import { validateWorkflowParameters } from '../../shared/service/validate-request';
import { canonicalJson } from '../../shared/canonical-json';
import { formFromParameters, toParameters, type FormState } from '../lib/form-model';
import type { BatchDraft } from './state';
import { tr } from '../i18n';

// Between the form and a recipe, both ways; pure, so the batch slice and the recipe slice say the same thing.

type DraftOutput = Pick<BatchDraft, 'namingTemplate' | 'collisionPolicy' | 'metadataPolicy' | 'outputFormat'>;

/** The form's output options (the draft's choices over Settings): the batch's output and a new recipe's deliverable 1. */
export function formOutput(draft: DraftOutput, settings: Settings | null, outputFolder: string): Partial<OutputOptions> {
  return {
    outputFolder,
    namingTemplate: draft.namingTemplate ?? settings?.namingTemplate,
    collisionPolicy: draft.collisionPolicy ?? settings?.collisionPolicy,
    sidecar: settings ? sidecarKindOf(settings) : 'none',
    metadata: draft.metadataPolicy ?? settings?.metadataPolicy ?? 'keep',
    format: draft.outputFormat ?? settings?.outputFormat ?? 'source',
    quality: settings?.jpegQuality ?? DEFAULT_JPEG_QUALITY,
    colour: settings?.colourPolicy ?? 'srgb',
  };
}

/** A deliverable's options as a spec's output or extra deliverable takes them. */
export function deliverableOptions(d: DeliverableDraft): DeliverableDraft {
  const { folder, namingTemplate, format, quality, size, colour, metadata, sidecar, watermark } = d;
  return { folder, namingTemplate, format, quality, size, colour, metadata, sidecar, ...(watermark ? { watermark } : {}) };
}

/**
 * Deliverable 1 as the form shows it: the form's own output choices (file names, format, metadata) win over the
 * recipe's, since that is what the user sees and edits there; folder, size, watermark, quality stay the recipe's.
 */
export function firstDeliverable(recipeFirst: DeliverableDraft | undefined, draft: DraftOutput, settings: Settings | null): DeliverableDraft {
  const form = formOutput(draft, settings, '');
  if (!recipeFirst) {
    return { folder: '', namingTemplate: form.namingTemplate, format: form.format, quality: form.quality, colour: form.colour, metadata: form.metadata, sidecar: form.sidecar, size: { fit: 'original' } };
  }
  return {
    ...recipeFirst,
    namingTemplate: draft.namingTemplate ?? recipeFirst.namingTemplate,
    format: draft.outputFormat ?? recipeFirst.format,
    metadata: draft.metadataPolicy ?? recipeFirst.metadata,
  };
}

/** A form filled from a recipe, without any value the workflow no longer accepts, and what was left out, in words. */
export function formFromRecipe(detail: WorkflowDetail, recipe: Pick<Recipe, 'parameters' | 'fixedImages' | 'name' | 'seenCreditCost' | 'seenSchema'>): { form: FormState; warnings: string[] } {
  const checked = validateWorkflowParameters(detail, recipe.parameters);
  const refused = checked.ok ? [] : checked.problems;
  const drop = new Set(refused.map((p) => p.field));
  const keep = <T>(section: string, values: Record<string, T> | undefined) =>
    Object.fromEntries(Object.entries(values ?? {}).filter(([id]) => !drop.has(`${section}.${id}`)));
  const overrides = keep('globalOverrides', recipe.parameters.globalOverrides as Record<string, string> | undefined);
  const parameters: WorkflowParameters = {
    texts: keep('texts', recipe.parameters.texts),
    switchSelections: keep('switchSelections', recipe.parameters.switchSelections),
    ...(Object.keys(overrides).length ? { globalOverrides: overrides as WorkflowParameters['globalOverrides'] } : {}),
  };
  // What changed since it was saved first (a new price, an option gone: recipe-seen.ts), then each value refused.
  const drift = describeDrift(recipe.name, recipeDrift(recipe, detail));
  const warnings = [...(drift ? [drift] : []), ...refused.map((p) => `${p.field}: ${p.message}`)];
  const imageIds = new Set(detail.inputSchema.imageFields.map((f) => f.id));
  const fixedImages: Record<string, string> = {};
  for (const [field, image] of Object.entries(recipe.fixedImages)) {
    if (imageIds.has(field)) fixedImages[field] = image.path;
    else warnings.push(`fixedImages.${field}: ${tr('recipes', 'store.notImageField', { workflow: detail.name })}`);
  }
  const base = formFromParameters(detail, parameters);
  const batchField = detail.inputSchema.imageFields.find((f) => !fixedImages[f.id])?.id ?? null;
  return { form: { ...base, fixedImages, batchField }, warnings };
}

/** A changed fingerprint, part by part, in words (shared/recipes/fingerprint.ts recipePaidParts). */
export function describePaidChanges(tried: RecipePaidParts, now: RecipePaidParts): string[] {
  const changes: string[] = [];
  if (tried.workflowId !== now.workflowId) changes.push(tr('recipes', 'store.changedWorkflow', { before: tried.workflowId, after: now.workflowId }));
  if (tried.parametersHash !== now.parametersHash) changes.push(tr('recipes', 'store.changedParameters'));
  for (const field of new Set([...Object.keys(tried.fixedImages), ...Object.keys(now.fixedImages)])) {
    const before = tried.fixedImages[field];
    const after = now.fixedImages[field];
    if (before === after) continue;
    changes.push(tr('recipes', !after ? 'store.imageRemoved' : !before ? 'store.imageAdded' : 'store.imageChanged', { field }));
  }
  if (tried.account !== now.account) changes.push(tr('recipes', 'store.changedAccount'));
  return changes;
}

/**
 * The parameters a batch from the form sends. While the form says what the recipe says, the recipe's own parameters,
 * as `run --recipe` sends them: the engine's parameters hash, the done ledger and the fingerprint are then the same
 * for the same recipe from the CLI and the app (the form spells out defaults a recipe may leave unsaid). A recipe the
 * workflow no longer accepts, or a form changed since, sends the form's.
 */
export function sentParameters(detail: WorkflowDetail, form: FormState, recipe: Pick<Recipe, 'parameters'> | null): WorkflowParameters {
  const fromForm = toParameters(detail, form);
  if (!recipe || !validateWorkflowParameters(detail, recipe.parameters).ok) return fromForm;
  const asForm = toParameters(detail, formFromParameters(detail, recipe.parameters));
  return canonicalJson(asForm) === canonicalJson(fromForm) ? recipe.parameters : fromForm;
}
