import { AppError } from '../../shared/errors';
import type { BatchSpecInput } from '../../shared/engine/model';
import type { WorkflowDetail } from '../../shared/service/model';
import { UsageError } from './errors';
import { credits } from './format';
import { openRecipe, sessionAccount } from './recipe-run';
import { checkRecipeAgainstWorkflow, describeRecipeRun, finishRecipeSpec, recipeRunFlags } from './recipe-spec';
import type { RunFlags } from './run-spec';
import type { CliSession } from './session';
import { getWorkflowOrUsage } from './workflow-lookup';

/**
 * `watch DIR --recipe`: the folder's settings from the recipe, checked as `run --recipe` checks them. A hot folder
 * sends each photo alone, so a recipe with fixed images is refused rather than run without them; its per-photo
 * budget is held against the workflow's price before the folder is armed.
 */
export async function recipeWatchSpec(session: CliSession, ref: string, given: RunFlags, path: string): Promise<{ spec: BatchSpecInput; workflow: WorkflowDetail }> {
  const recipe = await openRecipe(ref, session.options.stateDir);
  if (Object.keys(recipe.fixedImages).length > 0) {
    throw new UsageError(`recipe '${recipe.name}' sends fixed images (${Object.keys(recipe.fixedImages).join(', ')}): a watched folder cannot send them yet.`,
      'Run it on the folder with `batchroom run --recipe` instead.');
  }
  const [workflow, { settings }, { buildRunSpec }] = await Promise.all([
    getWorkflowOrUsage(session.call, recipe.workflowId), session.call('settings:get', {}), import('./run-spec'),
  ]);
  checkRecipeAgainstWorkflow(recipe, workflow, given);
  if (recipe.budgetPerPhoto !== null && workflow.creditCost > recipe.budgetPerPhoto) {
    throw new AppError('budget_exceeded', `A photo costs ${credits(workflow.creditCost)}, over recipe '${recipe.name}'s budget of ${credits(recipe.budgetPerPhoto)} a photo.`);
  }
  const { flags, overrides } = recipeRunFlags(recipe, given);
  const spec = await finishRecipeSpec(buildRunSpec(flags, [path], workflow, settings), {
    recipe, workflow, given, account: sessionAccount(session),
    // A watched folder's results never go "next to the photos" (inside the folder): --out or the settings' folder.
    defaultOutputFolder: async () => null,
    photoFiles: async () => [],
  });
  if (session.out.json) session.out.record({ type: 'recipe', name: recipe.name, fingerprint: spec.recipe?.fingerprint, overrides });
  else session.out.line(describeRecipeRun(recipe, overrides));
  return { spec, workflow };
}
