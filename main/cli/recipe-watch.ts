import { resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { BatchSpecInput } from '../../shared/engine/model';
import type { WorkflowDetail } from '../../shared/service/model';
import { hotFolderRecipeRefusal } from '../../shared/recipes/recipe-spec';
import { UsageError } from './errors';
import { credits } from './format';
import { recipeDriftLine, refuseChangedPrice } from './recipe-drift';
import { openRecipe, sessionAccount } from './recipe-run';
import { checkRecipeAgainstWorkflow, describeRecipeRun, finishRecipeSpec, isRecipeFile, recipeRunFlags } from './recipe-spec';
import type { RunFlags } from './run-spec';
import type { CliSession } from './session';
import { getWorkflowOrUsage } from './workflow-lookup';

export interface RecipeWatch {
  spec: BatchSpecInput;
  workflow: WorkflowDetail;
  /** The folder's `recipe`: the saved name, or the file's absolute path. The folder checks it before each batch. */
  ref: string;
  /** The price per photo accepted with --yes when it changed since the recipe was saved, else null. */
  acceptedCost: number | null;
}

/**
 * `watch DIR --recipe`: the folder's settings from the recipe, checked as `run --recipe` checks them, and the recipe
 * named in the folder's settings so that every batch is made from it as a hot folder's is (all its deliverables, its
 * fingerprint, its fixed images with each photo), and stops with the reason if the recipe goes or stops fitting; the
 * per-photo budget and a changed price are held against the workflow's price before the folder is armed.
 */
export async function recipeWatchSpec(session: CliSession, ref: string, given: RunFlags & { yes?: boolean }, path: string): Promise<RecipeWatch> {
  const recipe = await openRecipe(ref, session.options.stateDir);
  // A chain is refused (a folder runs one step); fixed images are sent with each photo (main/core/watch/folder-unit.ts).
  const chain = recipe.steps.length > 0 ? hotFolderRecipeRefusal(recipe) : null;
  if (chain) throw new UsageError(`${chain}.`, 'Run it on the folder with `batchroom run --recipe` instead.');
  const [workflow, { settings }, { buildRunSpec }] = await Promise.all([
    getWorkflowOrUsage(session.call, recipe.workflowId), session.call('settings:get', {}), import('./run-spec'),
  ]);
  const drift = recipeDriftLine(recipe, workflow, given);
  checkRecipeAgainstWorkflow(recipe, workflow, given);
  if (recipe.budgetPerPhoto !== null && workflow.creditCost > recipe.budgetPerPhoto) {
    throw new AppError('budget_exceeded', `A photo costs ${credits(workflow.creditCost)}, over recipe '${recipe.name}'s budget of ${credits(recipe.budgetPerPhoto)} a photo.`);
  }
  if (drift) session.out.notice(drift.line);
  refuseChangedPrice(drift, given.yes);
  const { flags, overrides } = recipeRunFlags(recipe, given);
  const spec = await finishRecipeSpec(buildRunSpec(flags, [path], workflow, settings), {
    recipe, workflow, given, account: sessionAccount(session), photoFiles: async () => [],
  });
  if (session.out.json) session.out.record({ type: 'recipe', name: recipe.name, fingerprint: spec.recipe?.fingerprint, overrides });
  else session.out.line(describeRecipeRun(recipe, overrides));
  return { spec, workflow, ref: isRecipeFile(ref) ? resolve(ref) : recipe.name, acceptedCost: drift?.priceChanged ? workflow.creditCost : null };
}
