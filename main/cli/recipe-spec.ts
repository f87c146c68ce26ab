import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BatchSpecInput } from '../../shared/engine/model';
import { isAppError } from '../../shared/errors';
import { recipeSpecParts, recipeWorkflowProblems } from '../../shared/recipes/recipe-spec';
import { recipeDrift } from '../../shared/recipes/recipe-seen';
import { parseRecipe, type Recipe } from '../../shared/recipes/recipe';
import type { WorkflowDetail, WorkflowParameters } from '../../shared/service/model';
import { UsageError } from './errors';
import type { RunFlags } from './run-spec';

// `--recipe NAME|FILE` for `run` and `watch`: the recipe's settings become the run's flags (a flag given beside it
// wins, and is said), the recipe is checked against the workflow as the service describes it now, and the batch spec
// carries the recipe's name and fingerprint into each result's provenance.

const LIST_HINT = '`batchroom recipes list` shows the saved recipes; a file is named by its path (…/x.batchroom-recipe.json).';

/** A path (it has a folder separator, or names a .json file) is read directly; anything else is a saved recipe's name. */
export const isRecipeFile = (ref: string): boolean => /[\\/]/.test(ref) || ref.toLowerCase().endsWith('.json');

/** The recipe `ref` names: a saved one (any case) in the state folder, or a `.batchroom-recipe.json` file. */
export async function loadRecipe(ref: string, stateDir: string, cwd = process.cwd()): Promise<Recipe> {
  if (!isRecipeFile(ref)) {
    const { createRecipeStore } = await import('../core/recipes/recipe-store');
    try {
      return createRecipeStore(stateDir).get(ref);
    } catch (error) {
      if (isAppError(error) && (error.code === 'not_found' || error.code === 'validation')) throw new UsageError(error.message, LIST_HINT);
      throw error;
    }
  }
  const path = resolve(cwd, ref);
  const { checkImportable } = await import('../core/recipes/recipe-files');
  let data: unknown;
  try {
    checkImportable(path);
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (isAppError(error)) throw new UsageError(error.message);
    if (error instanceof SyntaxError) throw new UsageError(`${path}: not a recipe file: not valid JSON (${error.message})`);
    throw error;
  }
  const outcome = parseRecipe(data);
  if (!outcome.ok) throw new UsageError(`${path}: ${outcome.message}`, 'docs/recipes.md describes the recipe file.');
  return outcome.value;
}

/** The fixed images and watermarks as they are on this computer: any missing or changed one is an error before anything is priced. */
export async function checkFixedImages(recipe: Recipe): Promise<void> {
  const { checkRecipeImages } = await import('../core/recipes/recipe-images');
  const bad = (await checkRecipeImages(recipe)).filter((check) => check.status !== 'ok');
  if (bad.length) {
    throw new UsageError(`recipe '${recipe.name}': ${bad.length === 1 ? 'an image it uses is' : 'images it uses are'} not as saved: ${bad.map((b) => b.message).join('; ')}`,
      'Nothing was sent. Put the saved image back, or save the recipe again with this one.');
  }
}

export interface RecipeFlags {
  flags: RunFlags;
  /** The flags given beside --recipe that replace one of its values, as typed (`--format png`), in order. */
  overrides: string[];
}

const idOf = (pair: string) => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();

/** The recipe's values as `run` flags, a flag given beside --recipe taking the place of the recipe's value. */
export function recipeRunFlags(recipe: Recipe, given: RunFlags): RecipeFlags {
  if (given.workflow && given.workflow !== recipe.workflowId) {
    throw new UsageError(`--workflow ${given.workflow} is not the workflow of recipe '${recipe.name}' (${recipe.workflowId}).`, 'Leave out --workflow, or run without --recipe.');
  }
  const overrides: string[] = [];
  const { texts = {}, switchSelections = {}, globalOverrides = {} } = recipe.parameters;
  const givenTexts = new Set(given.text.map(idOf));
  const givenSwitches = new Set(given.switch.map(idOf));
  overrides.push(...given.text.map((t) => `--text ${idOf(t)}`), ...given.switch.map((s) => `--switch ${s}`));
  const pick = (flag: string, value: string | undefined, fromRecipe: string | undefined): string | undefined => {
    if (value === undefined) return fromRecipe;
    overrides.push(`${flag} ${value}`);
    return value;
  };
  const deliverable = recipe.deliverables[0]!;
  return {
    flags: {
      ...given,
      workflow: recipe.workflowId,
      text: [...Object.entries(texts).filter(([id]) => !givenTexts.has(id)).map(([id, value]) => `${id}=${value}`), ...given.text],
      switch: [...Object.entries(switchSelections).filter(([id]) => !givenSwitches.has(id)).map(([id, on]) => `${id}=${on.join(',')}`), ...given.switch],
      aspect: pick('--aspect', given.aspect, globalOverrides.aspectRatio),
      size: pick('--size', given.size, globalOverrides.imageSize),
      naming: pick('--naming', given.naming, deliverable.namingTemplate),
      format: pick('--format', given.format, deliverable.format),
      quality: pick('--quality', given.quality, String(deliverable.quality)),
      colour: pick('--colour', given.colour, deliverable.colour),
      metadata: pick('--metadata', given.metadata, deliverable.metadata),
      sidecar: pick('--sidecar', given.sidecar, deliverable.sidecar),
    },
    overrides,
  };
}

/** The estimate's line: `recipe 'Client A web'`, `recipe 'Client A web' with --format png`. */
export const describeRecipeRun = (recipe: Recipe, overrides: readonly string[]): string =>
  `recipe '${recipe.name}'${overrides.length ? ` with ${overrides.join(', ')}` : ''}`;

/**
 * The recipe against the workflow as the service describes it now: a field gone, an option gone, a value past a
 * limit, a field newly required, an image field gone. Values a flag replaces are not the recipe's to answer for.
 * Throws a usage error naming every such field: nothing may be sent that the schema no longer accepts.
 */
export function checkRecipeAgainstWorkflow(recipe: Recipe, workflow: WorkflowDetail, given: Pick<RunFlags, 'text' | 'switch' | 'aspect' | 'size'>): void {
  const problems = recipeWorkflowProblems(recipe, workflow, replacedFields(given));
  if (problems.length) {
    // What changed since the recipe was saved first ("option 'film' of 'look' is gone"), then every field refused.
    const changes = recipeDrift(recipe, workflow, new Set([...given.text.map(idOf), ...given.switch.map(idOf)])).changes;
    throw new UsageError(`${changes.length ? `recipe '${recipe.name}': ${changes.join('; ')}. ` : ''}recipe '${recipe.name}' does not fit workflow ${workflow.id} as the service describes it now: ${problems.join('; ')}`,
      `Nothing was sent. \`batchroom workflow ${workflow.id}\` lists its fields; a flag beside --recipe (--text, --switch) can stand in for a field.`);
  }
}

/** The recipe's values a flag given beside --recipe stands in for, as the schema check names them (`texts.look`). */
export function replacedFields(given: Pick<RunFlags, 'text' | 'switch' | 'aspect' | 'size'>): Set<string> {
  return new Set([
    ...given.text.map((t) => `texts.${idOf(t)}`), ...given.switch.map((s) => `switchSelections.${idOf(s)}`),
    ...(given.aspect ? ['globalOverrides.aspectRatio'] : []), ...(given.size ? ['globalOverrides.imageSize'] : []),
  ]);
}

/** The recipe's parameters with the flags' values in their place: the recipe's own shape kept, so its hash is the recipe's. */
function mergedParameters(recipe: Recipe, built: WorkflowParameters, given: Pick<RunFlags, 'text' | 'switch' | 'aspect' | 'size'>): WorkflowParameters {
  if (!given.text.length && !given.switch.length && !given.aspect && !given.size) return recipe.parameters;
  return built;
}

export interface RecipeSpecContext {
  recipe: Recipe;
  workflow: WorkflowDetail;
  given: RunFlags;
  /** The service account paid from (main/core/service/account-id.ts), part of the fingerprint. */
  account: string;
  /** The photo files of the spec's paths (folders opened, RAW pairs joined): each is sent with the fixed images. */
  photoFiles: (spec: BatchSpecInput) => Promise<string[]>;
}

/**
 * The batch spec `buildRunSpec` made from the recipe's flags (deliverable 1's format, naming… with the flags' values
 * in their place), finished with what flags cannot say, from the one mapping (shared/recipes/recipe-spec.ts):
 * deliverable 1's folder, size and watermark in `spec.output` (the output folder stays the root), deliverables 2…N
 * in `spec.deliverables`, the fixed images (every photo becomes a mapping: the photo in its field, each fixed image
 * in its own) and the recipe's name and fingerprint for the provenance and the ledger.
 */
export async function finishRecipeSpec(spec: BatchSpecInput, c: RecipeSpecContext): Promise<BatchSpecInput> {
  const parts = recipeSpecParts(c.recipe, c.account, mergedParameters(c.recipe, spec.parameters ?? {}, c.given));
  const { folder, size, watermark } = parts.output;
  const output = { ...spec.output, folder, size, ...(watermark ? { watermark } : {}) };
  let inputs = spec.inputs;
  const fixed = Object.entries(c.recipe.fixedImages);
  if (fixed.length > 0) {
    const fields = c.workflow.inputSchema.imageFields.filter((f) => !c.recipe.fixedImages[f.id]);
    const photoField = spec.inputs.imageField ?? (fields.find((f) => f.required) ?? fields[0])?.id;
    if (!photoField) throw new UsageError(`recipe '${c.recipe.name}' fills every image field of ${c.workflow.id} with a fixed image: there is no field left for the photos.`);
    const images = Object.fromEntries(fixed.map(([field, image]) => [field, image.path]));
    // The photo first: the output folder "next to the photos" and the result's name follow the first image given.
    const files = spec.inputs.paths?.length ? await c.photoFiles({ ...spec, output }) : [];
    inputs = {
      ...spec.inputs,
      paths: [],
      mappings: [...(spec.inputs.mappings ?? []).map((m) => ({ ...m, ...images })), ...files.map((path) => ({ [photoField]: path, ...images }))],
    };
  }
  return { ...spec, parameters: parts.parameters, inputs, output, deliverables: parts.deliverables, recipe: parts.recipe };
}
