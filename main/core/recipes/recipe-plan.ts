import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { ExtraDeliverable } from '../../../shared/engine/output-options';
import { describeDrift, recipeDrift } from '../../../shared/recipes/recipe-seen';
import { hotFolderRecipeRefusal, recipeSpecParts, recipeWorkflowProblems, type RecipeSpecParts } from '../../../shared/recipes/recipe-spec';
import { parseRecipe, type Recipe } from '../../../shared/recipes/recipe';
import type { WorkflowDetail, WorkflowParameters } from '../../../shared/service/model';
import { checkImportable } from './recipe-files';
import { checkRecipeImages } from './recipe-images';
import { createRecipeStore, RECIPES_DIR_NAME, recipeFileName } from './recipe-store';

// A hot folder's recipe, looked up and checked each time the folder sends a batch: deleted, damaged, an image
// changed, no longer fitting the workflow, its price changed, over its budget per photo — each a reason the folder
// shows, and nothing is sent. Otherwise the parts of the batch the recipe decides (shared/recipes/recipe-spec.ts).

/** A recipe reference is a file when it looks like a path (the CLI's `watch --recipe FILE`), else a saved name. */
const isFile = (ref: string): boolean => /[\\/]/.test(ref) || ref.toLowerCase().endsWith('.json');

/** The recipe `ref` names: saved in `stateDir` (any case), or a `.batchroom-recipe.json` file. Throws a readable AppError. */
export function loadRecipeRef(ref: string, stateDir: string): Recipe {
  if (!isFile(ref)) return createRecipeStore(stateDir).get(ref);
  const path = resolve(ref);
  checkImportable(path);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new AppError('validation', `${path}: not a recipe file: not valid JSON`);
  }
  const outcome = parseRecipe(data);
  if (!outcome.ok) throw new AppError('validation', `${path}: ${outcome.message}`);
  return outcome.value;
}

/**
 * What a folder's batch takes from its recipe: the parameters too, read again before each batch (the recipe's as saved
 * now, with the values the folder keeps whatever the recipe says — `watch --recipe`'s flags — over them).
 */
export interface FolderRecipe {
  parameters: WorkflowParameters;
  output: RecipeSpecParts['output'];
  deliverables: ExtraDeliverable[];
  recipe: { name: string; fingerprint: string };
  /** A recipe with fixed images: each photo is sent as a mapping with them (folder-unit.ts). Absent: photos alone. */
  fixed?: FolderFixedImages;
}

/** The fixed images a folder's photos are sent with, and the field the photo goes in. */
export interface FolderFixedImages {
  photoField: string;
  /** Field → path (what is sent) and field → SHA-256 (as the recipe saved it and as checked before this batch). */
  paths: Record<string, string>;
  hashes: Record<string, string>;
}

/**
 * The photo's field and the fixed images, or null (none), or why the folder cannot send them: as `run --recipe`, the
 * photo goes in the first required image field without a fixed image, else the first such (or the folder's image
 * field), and a fixed image in a
 * field before it is refused (a result is named after the first image field: every result would be named after it).
 */
function fixedImagesOf(recipe: Recipe, workflow: WorkflowDetail, imageField: string | undefined): FolderFixedImages | null | string {
  const entries = Object.entries(recipe.fixedImages);
  if (entries.length === 0) return null;
  const order = workflow.inputSchema.imageFields.map((f) => f.id);
  const free = workflow.inputSchema.imageFields.filter((f) => !(f.id in recipe.fixedImages));
  const photoField = imageField ?? (free.find((f) => f.required) ?? free[0])?.id;
  if (!photoField || photoField in recipe.fixedImages) return `recipe '${recipe.name}' leaves no image field of ${workflow.id} for the photos`;
  const before = entries.map(([field]) => field).filter((field) => order.indexOf(field) < order.indexOf(photoField));
  if (before.length > 0) return `recipe '${recipe.name}' sends a fixed image in ${before.join(', ')}, before the photos' field ${photoField}: results would be named after it`;
  return {
    photoField,
    paths: Object.fromEntries(entries.map(([field, image]) => [field, image.path])),
    hashes: Object.fromEntries(entries.map(([field, image]) => [field, image.sha256])),
  };
}

export type FolderRecipeCheck = { ok: true; value: FolderRecipe } | { ok: false; reason: string };

export interface FolderRecipeDeps {
  stateDir: string;
  getWorkflow(id: string): Promise<WorkflowDetail>;
  /** The service account paid from: part of the fingerprint. */
  account(): string;
}

/** A file as stat sees it (path, size, change time), or null: a file seen unchanged need not be hashed again. */
function statKey(path: string): string | null {
  try {
    const s = statSync(path);
    return s.isFile() ? `${path}\n${s.size}\n${s.mtimeMs}\n${s.ctimeMs}` : null;
  } catch {
    return null;
  }
}

/** What the check is asked about a folder. */
export interface FolderRecipeAsk {
  workflowId: string;
  /** The folder's image field for its photos, if set. */
  imageField?: string | undefined;
  /** The price per photo accepted for the folder (`watch --recipe --yes`), or null. */
  recipeAcceptedCost?: number | null;
  /** Values the folder keeps whatever the recipe says (`watch --recipe --text …`): `recipeParameterOverrides`. */
  overrides?: WorkflowParameters;
}

type Sections = Required<Pick<WorkflowParameters, 'texts' | 'switchSelections' | 'globalOverrides'>>;
const SECTIONS = ['texts', 'switchSelections', 'globalOverrides'] as const;

/** `base` with each value of `overrides` in its place (a text, a switch's options, an aspect or size). */
export function withOverrides(base: WorkflowParameters, overrides: WorkflowParameters): WorkflowParameters {
  const merged: WorkflowParameters = { ...base };
  for (const section of SECTIONS) {
    const over = overrides[section];
    if (over && Object.keys(over).length > 0) (merged as Sections)[section] = { ...(base[section] ?? {}), ...over } as never;
  }
  return merged;
}

/** The values of `given` that are not `base`'s: what flags beside `watch --recipe` replaced. */
export function parameterOverrides(given: WorkflowParameters, base: WorkflowParameters): WorkflowParameters {
  const overrides: WorkflowParameters = {};
  for (const section of SECTIONS) {
    const mine = (given[section] ?? {}) as Record<string, unknown>;
    const theirs = (base[section] ?? {}) as Record<string, unknown>;
    const changed = Object.entries(mine).filter(([id, value]) => JSON.stringify(value) !== JSON.stringify(theirs[id]));
    if (changed.length > 0) (overrides as Sections)[section] = Object.fromEntries(changed) as never;
  }
  return overrides;
}

/**
 * The values a folder keeps over its recipe: those of its parameters that are not the recipe's as saved now (the
 * flags `watch --recipe` was given). Empty when the recipe cannot be read (its check says why before each batch).
 */
export function recipeParameterOverrides(config: { recipe: string | null; parameters: WorkflowParameters }, stateDir: string): WorkflowParameters {
  if (!config.recipe) return {};
  try {
    return parameterOverrides(config.parameters, loadRecipeRef(config.recipe, stateDir).parameters);
  } catch {
    return {};
  }
}

/** Checks a folder's recipe against this computer and the workflow now; never throws. */
export function createFolderRecipes(deps: FolderRecipeDeps) {
  // A folder checks its recipe before every batch: a 10 MB watermark took 71 ms to hash each time. An image whose
  // size and times are those it had when its hash matched is not read again (any write changes its ctime).
  const verified = new Map<string, string>();
  async function imageProblems(recipe: Recipe): Promise<string[]> {
    const wanted = [
      ...Object.values(recipe.fixedImages), ...recipe.deliverables.flatMap((d) => (d.watermark ? [d.watermark] : [])),
    ];
    if (wanted.every((image) => { const key = statKey(image.path); return key !== null && verified.get(key) === image.sha256; })) return [];
    const checks = await checkRecipeImages(recipe);
    for (const c of checks) {
      const key = c.status === 'ok' ? statKey(c.path) : null;
      if (key) verified.set(key, c.expected);
    }
    return checks.filter((c) => c.status !== 'ok').map((c) => c.message ?? c.where);
  }

  return Object.assign(check, { stamp: (ref: string) => recipeStamp(ref, deps.stateDir) });

  async function check(ref: string, folder: FolderRecipeAsk): Promise<FolderRecipeCheck> {
    const no = (why: string): FolderRecipeCheck => ({ ok: false, reason: `${why}: nothing is sent until it is fixed` });
    let recipe: Recipe;
    try {
      recipe = loadRecipeRef(ref, deps.stateDir);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return no(code === 'not_found' ? `recipe '${ref}' is gone (deleted or renamed)` : `recipe '${ref}' cannot be read: ${(error as Error).message}`);
    }
    // A chain is not run from a folder yet (hotFolderRecipeRefusal); fixed images are (folder-unit.ts): only the chain's refusal applies.
    const refusal = recipe.steps.length > 0 ? hotFolderRecipeRefusal(recipe) : null;
    if (refusal) return no(refusal);
    if (recipe.workflowId !== folder.workflowId) return no(`recipe '${recipe.name}' is for workflow ${recipe.workflowId}, the folder sends ${folder.workflowId}: choose the recipe again`);
    const images = await imageProblems(recipe);
    if (images.length > 0) return no(`recipe '${recipe.name}': ${images.join('; ')}`);
    let workflow: WorkflowDetail;
    try {
      workflow = await deps.getWorkflow(recipe.workflowId);
    } catch (error) {
      return { ok: false, reason: `recipe '${recipe.name}': its workflow cannot be read now (${(error as Error).message}); nothing is sent until it can` };
    }
    const drift = recipeDrift(recipe, workflow);
    // The recipe as saved now, not as the folder took it when it was saved or started: an edit of the recipe's texts
    // or switches reaches an armed folder at its next batch (and is checked here like any other).
    const parameters = withOverrides(recipe.parameters, folder.overrides ?? {});
    const problems = recipeWorkflowProblems({ ...recipe, parameters }, workflow);
    if (problems.length > 0) return no(`${describeDrift(recipe.name, { price: null, changes: drift.changes }) ?? `recipe '${recipe.name}'`}: does not fit ${workflow.id} now (${problems.join('; ')})`);
    // A folder cannot ask: a new price is said and waits for the recipe to be saved again (which records it).
    if (drift.price && folder.recipeAcceptedCost !== workflow.creditCost) return no(`${describeDrift(recipe.name, { price: drift.price, changes: [] })}; save the recipe again to accept it`);
    if (recipe.budgetPerPhoto !== null && workflow.creditCost > recipe.budgetPerPhoto) {
      return no(`a photo costs ${workflow.creditCost} credits, over recipe '${recipe.name}'s budget of ${recipe.budgetPerPhoto} a photo`);
    }
    const fixed = fixedImagesOf(recipe, workflow, folder.imageField);
    if (typeof fixed === 'string') return no(fixed);
    const parts = recipeSpecParts(recipe, deps.account(), parameters);
    return { ok: true, value: { parameters, output: parts.output, deliverables: parts.deliverables, recipe: parts.recipe, ...(fixed ? { fixed } : {}) } };
  }
}
/** A folder's recipe check, and the recipe file's stamp (path, size, times; null: none there): changed → check again. */
export type FolderRecipes = ((ref: string, folder: FolderRecipeAsk) => Promise<FolderRecipeCheck>) & { stamp?: (ref: string) => string | null };

/** The stamp of the file a recipe reference reads (a saved name's file in the store, or the file given). */
export function recipeStamp(ref: string, stateDir: string): string | null {
  return statKey(isFile(ref) ? resolve(ref) : join(stateDir, RECIPES_DIR_NAME, recipeFileName(ref)));
}

/**
 * A saved folder's workflow, parameters and first deliverable's format, naming… taken from its recipe as saved now
 * (the app's editor, a restart after the recipe was edited). A recipe that cannot be read leaves the folder as it
 * is: its batches are then stopped, with the reason, by the check before each one.
 */
export function syncFolderRecipe<C extends FolderRecipeConfig>(config: C, stateDir: string): C {
  if (!config.recipe) return config;
  let recipe: Recipe;
  try {
    recipe = loadRecipeRef(config.recipe, stateDir);
  } catch {
    return config;
  }
  const d = recipe.deliverables[0]!;
  return {
    ...config, workflowId: recipe.workflowId, parameters: recipe.parameters, namingTemplate: d.namingTemplate, outputFormat: d.format,
    jpegQuality: d.quality, colourPolicy: d.colour, metadataPolicy: d.metadata, sidecar: d.sidecar,
  };
}

/** The hot-folder settings a recipe decides (shared/hotfolders/model.ts). */
interface FolderRecipeConfig {
  recipe: string | null;
  workflowId: string;
  parameters: WorkflowParameters;
  namingTemplate?: string | undefined;
  outputFormat: Recipe['deliverables'][number]['format'];
  jpegQuality: number;
  colourPolicy: Recipe['deliverables'][number]['colour'];
  metadataPolicy: Recipe['deliverables'][number]['metadata'];
  sidecar: Recipe['deliverables'][number]['sidecar'];
}
