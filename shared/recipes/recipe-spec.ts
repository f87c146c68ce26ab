import type { ExtraDeliverable, OutputOptions } from '../engine/output-options';
import type { WorkflowDetail, WorkflowParameters } from '../service/model';
import { validateWorkflowParameters } from '../service/validate-request';
import { recipeFingerprint } from './fingerprint';
import type { Deliverable, Recipe } from './recipe';

// A recipe as a batch: the one mapping the CLI (`run`/`watch --recipe`), hot folders and the app use, so a recipe
// means the same batch wherever it runs. Pure: the callers read the recipe, the workflow and the account.

/** What a deliverable sets of a batch's output options (deliverable 1 is `spec.output`; the output folder stays the root). */
export function deliverableOutput(d: Deliverable): Pick<OutputOptions, 'folder' | 'namingTemplate' | 'format' | 'quality' | 'size' | 'colour' | 'metadata' | 'sidecar'> & { watermark?: OutputOptions['watermark'] } {
  return {
    folder: d.folder, namingTemplate: d.namingTemplate, format: d.format, quality: d.quality, size: d.size,
    colour: d.colour, metadata: d.metadata, sidecar: d.sidecar, ...(d.watermark ? { watermark: d.watermark } : {}),
  };
}

/** Deliverables 2…N: `spec.deliverables`, each made from the same paid result as deliverable 1. */
export const extraDeliverables = (recipe: Pick<Recipe, 'deliverables'>): ExtraDeliverable[] =>
  recipe.deliverables.slice(1).map((d) => ({ ...deliverableOutput(d) }));

/** The parts of a batch spec a recipe decides (the inputs and the output folder are the caller's). */
export interface RecipeSpecParts {
  workflowId: string;
  parameters: WorkflowParameters;
  /** Deliverable 1's options, for `spec.output` (spread over the caller's output folder and collision policy). */
  output: ReturnType<typeof deliverableOutput>;
  deliverables: ExtraDeliverable[];
  recipe: { name: string; fingerprint: string };
}

/**
 * The recipe's workflow, parameters (its own shape, so the engine's parameters hash is the recipe's), deliverables
 * and fingerprint. `parameters` replaces the recipe's when flags changed what is paid: the fingerprint is then that
 * of the edit sent.
 */
export function recipeSpecParts(recipe: Recipe, account: string, parameters: WorkflowParameters = recipe.parameters): RecipeSpecParts {
  return {
    workflowId: recipe.workflowId,
    parameters,
    output: deliverableOutput(recipe.deliverables[0]!),
    deliverables: extraDeliverables(recipe),
    recipe: { name: recipe.name, fingerprint: recipeFingerprint({ workflowId: recipe.workflowId, parameters, fixedImages: recipe.fixedImages, steps: recipe.steps }, account) },
  };
}

/**
 * What no longer fits the workflow as the service describes it now, one line per field (`texts.look: …`): a field
 * gone, an option gone, a value past a limit, a field newly required, a fixed image's field gone. `replaced` names
 * values a flag stands in for (`texts.look`, `globalOverrides.imageSize`): they are not the recipe's to answer for.
 * Empty: nothing the schema refuses would be sent.
 */
export function recipeWorkflowProblems(recipe: Recipe, workflow: WorkflowDetail, replaced: ReadonlySet<string> = new Set()): string[] {
  const { texts = {}, switchSelections = {}, globalOverrides = {} } = recipe.parameters;
  const keep = <T>(section: string, values: Record<string, T>) => Object.fromEntries(Object.entries(values).filter(([id]) => !replaced.has(`${section}.${id}`)));
  const own: WorkflowParameters = {
    texts: keep('texts', texts), switchSelections: keep('switchSelections', switchSelections), globalOverrides: keep('globalOverrides', globalOverrides),
  };
  const checked = validateWorkflowParameters(workflow, own);
  const problems = checked.ok ? [] : checked.problems.filter((p) => !replaced.has(p.field)).map((p) => `${p.field}: ${p.message}`);
  const imageIds = workflow.inputSchema.imageFields.map((f) => f.id);
  for (const field of Object.keys(recipe.fixedImages)) {
    if (!imageIds.includes(field)) problems.push(`fixedImages.${field}: is not an image field of "${workflow.name}" (expected: ${imageIds.join(', ') || 'none'})`);
  }
  return problems;
}

/** Why a hot folder cannot send this recipe's photos, or null (fixed images need a mapping per photo: `run --recipe` does that). */
export function hotFolderRecipeRefusal(recipe: Recipe): string | null {
  // A chain runs its steps one after the other as batches of their own (main/cli/chain-run.ts): not from a folder yet.
  if (recipe.steps.length > 0) {
    return `recipe '${recipe.name}' is a chain of ${recipe.steps.length + 1} steps: a hot folder runs one step (run it with \`batchroom run --recipe\`)`;
  }
  const fixed = Object.keys(recipe.fixedImages);
  return fixed.length > 0
    ? `recipe '${recipe.name}' sends fixed images (${fixed.join(', ')}): a hot folder sends each photo alone, so it cannot run it (run it with \`batchroom run --recipe\`)`
    : null;
}
