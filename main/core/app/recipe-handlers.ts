import { AppError } from '../../../shared/errors';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { recipeChannels } from '../../../shared/ipc/channels/recipes';
import { recipeFingerprint, recipePaidParts } from '../../../shared/recipes/fingerprint';
import { RECIPE_FILE_SUFFIX, makeRecipe, parseRecipe, recipeNameKey, serializeRecipe, type FixedImage, type Recipe } from '../../../shared/recipes/recipe';
import { checkRecipeImages, fixedImageOf } from '../recipes/recipe-images';
import type { RecipeStore } from '../recipes/recipe-store';
import { seenOf } from '../../../shared/recipes/recipe-seen';
import type { WorkflowDetail, WorkflowParameters } from '../../../shared/service/model';

export interface RecipeHandlerDeps {
  store: RecipeStore;
  /** The service account paid from now (main/core/service/account-id.ts): part of every fingerprint. */
  account: () => string;
  /** The workflow as the service describes it now: a saved recipe keeps its price and fields, to say later what changed. */
  workflow?: (id: string) => Promise<WorkflowDetail>;
  /** The recipe a batch's spec names (the journal), or null: absent where there is no engine. */
  batchRecipe?: (batchId: string) => Promise<{ name: string; fingerprint: string } | null>;
  /** What a batch's spec sends (workflow, parameters), or null: the CLI's Continue compares it field by field. */
  batchSent?: (batchId: string) => Promise<{ workflowId: string; parameters: WorkflowParameters } | null>;
  /** The files among `paths` a chain step saved as its result (the journal); none where there is no engine. */
  chainLinked?: (paths: readonly string[]) => Promise<string[]>;
}

/** The workflow's price and fields for a recipe being saved; none when the service cannot say now (offline). */
async function seenNow(deps: RecipeHandlerDeps, workflowId: string): Promise<ReturnType<typeof seenOf> | Record<string, never>> {
  try {
    return deps.workflow ? seenOf(await deps.workflow(workflowId)) : {};
  } catch {
    return {}; // saved without: a run then checks today's schema only (docs/recipes.md)
  }
}

/** A file the form names, hashed; a missing or unreadable one is the user's to fix, named by where the recipe uses it. */
async function hashed(where: string, path: string): Promise<FixedImage> {
  try {
    return await fixedImageOf(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AppError('validation', `${where}: ${path} ${code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? 'error'})`}`, { field: where });
  }
}

async function hashedImages(paths: Record<string, string>): Promise<Record<string, FixedImage>> {
  const entries = await Promise.all(Object.entries(paths).map(async ([field, path]) => [field, await hashed(`fixedImages.${field}`, path)] as const));
  return Object.fromEntries(entries);
}

/**
 * recipes:* — the store the CLI uses (main/core/recipes), for the app. Images arrive by path and are hashed here (the
 * renderer never reads files), and the fingerprint is computed here because it names the service account.
 */
export function createRecipeHandlers(deps: RecipeHandlerDeps): DomainHandlers<typeof recipeChannels> {
  const { store } = deps;
  const withImages = async (recipe: Recipe) => ({ recipe, images: await checkRecipeImages(recipe) });
  return {
    'recipes:list': () => store.list(),
    'recipes:get': ({ name }) => withImages(store.get(name)),
    'recipes:save': async ({ replace, fixedImages, deliverables, ...rest }) => {
      const withWatermarks = await Promise.all(deliverables.map(async (d, i) => {
        if (!d.watermark) {
          const { watermark: _none, ...plain } = d;
          return plain;
        }
        const { sha256 } = await hashed(`deliverables.${i}.watermark`, d.watermark.path);
        // A hash the form carried is of the file when it was picked: the file as it is now is what gets laid over.
        return { ...d, watermark: { ...d.watermark, sha256 } };
      }));
      // The app's form edits a recipe's first step and its deliverables: a chain's later steps are kept as they were.
      const chain = replace ? chainOf(store, rest.name) : {};
      let recipe: Recipe;
      try {
        recipe = makeRecipe({ ...rest, fixedImages: await hashedImages(fixedImages), deliverables: withWatermarks, ...(await seenNow(deps, rest.workflowId)), ...chain });
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('validation', (error as Error).message);
      }
      return withImages(store.save(recipe, { replace }));
    },
    'recipes:duplicate': ({ from, to }) => store.duplicate(from, to),
    'recipes:rename': ({ from, to }) => store.rename(from, to),
    'recipes:delete': ({ name }) => {
      const { name: deleted } = store.get(name); // its own spelling, for the notice
      store.delete(name);
      return { deleted };
    },
    'recipes:export': ({ name }) => {
      const recipe = store.get(name);
      return { fileName: `${recipe.name}${RECIPE_FILE_SUFFIX}`, text: serializeRecipe(recipe) };
    },
    'recipes:import': async ({ text, name, replace }) => {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new AppError('validation', `not a recipe file: not valid JSON (${(error as Error).message})`);
      }
      const outcome = parseRecipe(data);
      if (!outcome.ok) throw new AppError('validation', outcome.message);
      const recipe = name === undefined ? outcome.value : { ...outcome.value, name };
      let replaced = false;
      if (replace) replaced = store.list().recipes.some((r) => recipeNameKey(r.name) === recipeNameKey(recipe.name));
      store.save(recipe, { replace });
      return { replaced, ...(await withImages(recipe)) };
    },
    'recipes:chainLinked': async ({ paths }) => ({ linked: (await deps.chainLinked?.(paths)) ?? [] }),
    'recipes:ofBatch': async ({ batchId }) => ({ recipe: (await deps.batchRecipe?.(batchId)) ?? null, sent: (await deps.batchSent?.(batchId)) ?? null }),
    'recipes:fingerprint': async (args) => {
      const edit = 'name' in args
        ? store.get(args.name)
        : { workflowId: args.workflowId, parameters: args.parameters, fixedImages: await hashedImages(args.fixedImages) };
      const account = deps.account();
      return { fingerprint: recipeFingerprint(edit, account), parts: recipePaidParts(edit, account) };
    },
  };
}

/** The steps after the first of the saved recipe `name` (a chain), to keep through a save from the form; {} if none. */
function chainOf(store: { get(name: string): Recipe }, name: string): Pick<Recipe, 'steps' | 'keepSteps'> | Record<string, never> {
  try {
    const saved = store.get(name);
    return saved.steps.length > 0 ? { steps: saved.steps, keepSteps: saved.keepSteps } : {};
  } catch {
    return {};
  }
}
