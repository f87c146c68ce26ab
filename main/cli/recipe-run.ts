import type { BatchSpecInput } from '../../shared/engine/model';
import type { Recipe } from '../../shared/recipes/recipe';
import type { WorkflowDetail } from '../../shared/service/model';
import { accountIdFor } from '../core/service/account-id';
import { resolveStateDir } from '../core/settings/state-dir';
import { UsageError } from './errors';
import { checkFixedImages, describeRecipeRun, checkRecipeAgainstWorkflow, finishRecipeSpec, loadRecipe, recipeRunFlags } from './recipe-spec';
import { recipeDriftLine } from './recipe-drift';
import type { RunFlags } from './run-spec';
import type { CliSession } from './session';
import { getWorkflowOrUsage } from './workflow-lookup';

/**
 * The recipe `--recipe` names, read and checked before any session starts: unknown, unreadable, or with a fixed image
 * or watermark missing or changed — each an exit 2 before pricing, nothing written.
 */
export async function openRecipe(ref: string, stateDir: string | undefined): Promise<Recipe> {
  const recipe = await loadRecipe(ref, resolveStateDir({ stateDir }));
  await checkFixedImages(recipe);
  return recipe;
}

/**
 * The account the session pays from, as the service client names it (accountIdFor of its URL and key): part of the
 * fingerprint. The core lists the key in use first among its secrets.
 */
export const sessionAccount = (session: Pick<CliSession, 'status' | 'core'>): string =>
  accountIdFor(session.status.serviceUrl, session.core.secrets()[0] ?? null);

export interface RecipeRun {
  spec: BatchSpecInput;
  workflow: WorkflowDetail;
  /** The flags given beside --recipe that replaced one of its values. */
  overrides: string[];
  /** The estimate's line: `recipe 'Client A web' with --format png`. */
  said: string;
  /** What changed in the workflow since the recipe was saved (`recipe 'X': price changed 2 → 3 credits per photo`), or null. */
  drift: { line: string; priceChanged: boolean } | null;
}

/** `run --recipe`: the recipe checked against the workflow as the service describes it now, then made a batch spec. */
export async function recipeRunSpec(session: CliSession, recipe: Recipe, given: RunFlags, paths: string[]): Promise<RecipeRun> {
  const [workflow, { settings }, { buildRunSpec }] = await Promise.all([
    getWorkflowOrUsage(session.call, recipe.workflowId), session.call('settings:get', {}), import('./run-spec'),
  ]);
  const drift = recipeDriftLine(recipe, workflow, given);
  checkRecipeAgainstWorkflow(recipe, workflow, given);
  refuseFixedBeforePhoto(recipe, workflow, given.imageField);
  const { flags, overrides } = recipeRunFlags(recipe, given);
  const spec = buildRunSpec(flags, paths, workflow, settings);
  const [{ resolveInputs }, { BatchInputsSchema }] = await Promise.all([import('../core/images/resolve-inputs'), import('../../shared/engine/model')]);
  const finished = await finishRecipeSpec(spec, {
    recipe, workflow, given, account: sessionAccount(session),
    photoFiles: async (s) => {
      const inputs = BatchInputsSchema.parse(s.inputs);
      const scan = await resolveInputs(inputs.paths, { recursive: inputs.recursive, exclude: [s.output.outputFolder ?? ''].filter(Boolean), rawPairs: inputs.rawPairs ?? 'jpeg' });
      return scan.files.map((f) => f.path);
    },
  });
  return { spec: finished, workflow, overrides, said: describeRecipeRun(recipe, overrides), drift };
}

/**
 * A result is named after, and takes its metadata from, the first image field in the workflow's order: a fixed image
 * in a field before the photos' would name every result after the reference. Refused until the engine can be told
 * which field holds the photo.
 */
function refuseFixedBeforePhoto(recipe: Recipe, workflow: WorkflowDetail, imageField: string | undefined): void {
  if (imageField && recipe.fixedImages[imageField]) {
    throw new UsageError(`--image-field ${imageField}: recipe '${recipe.name}' sends a fixed image in that field; the photos need another.`);
  }
  const order = workflow.inputSchema.imageFields.map((f) => f.id);
  const photo = imageField ?? order.find((id) => !recipe.fixedImages[id]);
  const before = order.slice(0, photo ? order.indexOf(photo) : 0).filter((id) => recipe.fixedImages[id]);
  if (before.length) {
    throw new UsageError(`recipe '${recipe.name}' sends a fixed image in ${before.join(', ')}, before the photos' field ${photo ?? ''} in ${workflow.id}: results would be named after that image.`,
      'Not supported yet: put the fixed image in a later field.');
  }
}
