import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { describeChainStep } from '../../shared/engine/chain-mark';
import type { BatchEstimate } from '../../shared/engine/model';
import { chainStepSpec, keptStepFolderName, type ChainContext, type StepInputs } from '../../shared/recipes/chain-spec';
import type { Recipe } from '../../shared/recipes/recipe';
import { creditKindOf, plural } from '../../shared/service/credit-kind';
import { validateWorkflowParameters } from '../../shared/service/validate-request';
import type { WorkflowDetail } from '../../shared/service/model';
import { specWithOutputFolder } from '../core/engine/output-folder';
import { resolveStateDir } from '../core/settings/state-dir';
import { allItems } from './batch-tracker';
import { nextInputs, priceChain, type ChainPrice } from './chain-plan';
import { UsageError } from './errors';
import { EXIT, type ExitCode } from './exit-codes';
import { credits, fit, lineWidth } from './format';
import { followBatches } from './follow';
import { recipeRunSpec } from './recipe-run';
import type { RunFlags } from './run-spec';
import type { CliSession } from './session';
import { getWorkflowOrUsage } from './workflow-lookup';

// `run --recipe` with a chain recipe (issue 32 #3): every step is its own batch, run one after the other; step n+1
// is sent step n's results (by URL while the service has them: main/core/engine/chain-input.ts). Everything is priced
// and asked once, before step 1. Run the same command again after Ctrl-C, kill -9 or a failure: the done ledger and
// the claims make each step skip what it already did (paid once), so the chain resumes at the first unfinished step.

/** Where a chain keeps the results of the steps before the last when the recipe does not ask to keep them. */
export const chainStepsFolder = (stateDir: string, fingerprint: string, step: number): string =>
  join(stateDir, 'chain-steps', fingerprint.slice(0, 16), keptStepFolderName(step));

export async function runChain(session: CliSession, recipe: Recipe, flags: RunFlags, paths: string[],
  confirm: (question: string) => Promise<boolean>): Promise<ExitCode> {
  const { call, out } = session;
  const kind = creditKindOf(session.status);
  const run = await recipeRunSpec(session, recipe, flags, paths);
  const first = await specWithOutputFolder(run.spec);
  const workflows = [run.workflow, ...(await Promise.all(recipe.steps.map((step) => getWorkflowOrUsage(call, step.workflowId))))];
  checkLaterSteps(recipe, workflows);
  const fingerprint = first.recipe?.fingerprint ?? '';
  const stateDir = resolveStateDir({ stateDir: session.options.stateDir });
  const context: ChainContext = {
    chainId: randomUUID(), workflows,
    stepFolder: (step) => (recipe.keepSteps ? join(first.output.outputFolder, keptStepFolderName(step)) : chainStepsFolder(stateDir, fingerprint, step)),
  };
  const field = first.inputs.imageField ?? run.workflow.inputSchema.imageFields[0]?.id ?? 'image';
  let spec = chainStepSpec(first, recipe, context, 1, null, first.budget);
  let estimate: BatchEstimate = await call('batches:estimate', spec);
  const price = await priceChain(call, first, recipe, context, estimate, field);
  if (out.json) out.record({ type: 'recipe', name: recipe.name, fingerprint, overrides: run.overrides });
  else out.line(run.said);
  reportChain(session, recipe, price, estimate, first.output.outputFolder);
  if (run.drift && !out.json) out.line(run.drift.line);
  if (price.totalCost === 0 && estimate.itemCount === 0 && price.steps.every((s) => s.photos === 0)) {
    out.result('Nothing to process: every step is done for these photos.');
    return EXIT.ok;
  }
  if (recipe.budgetPerPhoto != null && price.perPhoto > recipe.budgetPerPhoto) {
    throw new AppError('budget_exceeded', `A photo costs ${credits(price.perPhoto, kind)} through the ${workflows.length} steps, over recipe '${recipe.name}'s budget of ${credits(recipe.budgetPerPhoto, kind)} a photo.`);
  }
  (await import('./recipe-drift')).refuseChangedPrice(run.drift, flags.yes);
  if (first.budget !== null && price.totalCost > first.budget) {
    throw new AppError('budget_exceeded', `This chain costs up to ${credits(price.totalCost, kind)}, over the budget of ${credits(first.budget, kind)}.`);
  }
  if (estimate.balance !== null && price.totalCost > estimate.balance) {
    throw new AppError('insufficient_credits', `This chain costs up to ${credits(price.totalCost, kind)} but the balance is ${credits(estimate.balance, kind)}.`);
  }
  if (!flags.yes && !(await confirm(`Spend up to ${credits(price.totalCost, kind)} on ${workflows.length} steps? [y/N] `))) {
    process.stderr.write('Nothing was sent.\n');
    return EXIT.ok;
  }
  let code: ExitCode = EXIT.ok;
  let spent = 0;
  for (let step = 1; step <= workflows.length; step++) {
    if (step > 1) {
      estimate = await call('batches:estimate', spec);
    }
    const stepField = spec.inputs.imageField ?? field;
    let items: Awaited<ReturnType<typeof allItems>> = [];
    const title = describeChainStep({ step, steps: workflows.length, names: workflows.map((w) => w.name) });
    if (estimate.itemCount > 0) {
      const batch = await call('batches:create', spec);
      if (out.json) out.record({ type: 'batch', ...batch });
      else out.line(fit(`${title}: batch ${batch.id}, ${plural(batch.total, 'photo')} → ${batch.outputFolder}`, lineWidth(process.stdout), '  '));
      const stepCode = await followBatches(session, [batch]);
      if (stepCode === EXIT.interrupted) return stepCode;
      if (code === EXIT.ok) code = stepCode;
      items = await allItems(session, batch.id);
      spent += (await call('batches:list', {})).find((b) => b.id === batch.id)?.creditsSpent ?? 0;
    } else if (!out.json) {
      out.line(`${title}: done before for ${plural(estimate.alreadyDone.length, 'photo')}, nothing to send`);
    }
    if (step === workflows.length) break;
    const next: StepInputs = nextInputs(spec, stepField, items, estimate);
    if (next.files.length === 0) {
      out.notice(`${title}: no result to go on with; the chain stops here.`);
      break;
    }
    spec = chainStepSpec(first, recipe, context, step + 1, next, first.budget === null ? null : Math.max(0, first.budget - spent));
  }
  await (await import('./bell')).ringBellAtEnd(session);
  return code;
}

/** Each later step's parameters against its workflow as the service describes it now: nothing it refuses is sent. */
function checkLaterSteps(recipe: Recipe, workflows: WorkflowDetail[]): void {
  const problems: string[] = [];
  recipe.steps.forEach((step, index) => {
    const workflow = workflows[index + 1]!;
    const checked = validateWorkflowParameters(workflow, step.parameters);
    if (!checked.ok) problems.push(...checked.problems.map((p) => `steps[${index}] (${workflow.id}) ${p.field}: ${p.message}`));
    const fields = workflow.inputSchema.imageFields.map((f) => f.id);
    if (step.imageField && !fields.includes(step.imageField)) problems.push(`steps[${index}] (${workflow.id}) imageField: "${step.imageField}" is not one of ${fields.join(', ') || 'none'}`);
    if (fields.length === 0) problems.push(`steps[${index}] (${workflow.id}): takes no image, so it cannot be sent the previous step's result`);
    const required = workflow.inputSchema.imageFields.filter((f) => f.required && f.id !== (step.imageField ?? fields[0]));
    if (required.length > 0) problems.push(`steps[${index}] (${workflow.id}): needs ${required.map((f) => f.id).join(', ')} too; a chain step is sent one photo`);
  });
  if (problems.length > 0) throw new UsageError(`recipe '${recipe.name}' no longer fits its workflows:\n  ${problems.join('\n  ')}`, 'Edit the recipe (`batchroom recipes export`, change, import) and run it again.');
}

function reportChain(session: CliSession, recipe: Recipe, price: ChainPrice, estimate: BatchEstimate, outputFolder: string): void {
  const { out } = session;
  const kind = creditKindOf(session.status);
  if (out.json) {
    out.record({ type: 'chainEstimate', recipe: recipe.name, steps: price.steps, totalCost: price.totalCost, perPhoto: price.perPhoto, balance: estimate.balance, keepSteps: recipe.keepSteps });
    return;
  }
  out.line(`Chain of ${price.steps.length} steps, ${credits(price.perPhoto, kind)} a photo through all of them:`);
  for (const s of price.steps) {
    out.line(`  ${describeChainStep({ step: s.step, steps: price.steps.length, names: price.steps.map((p) => p.name) })}: ${s.upTo ? 'up to ' : ''}${plural(s.photos, 'photo')}, ${credits(s.credits, kind)}`);
  }
  if (estimate.alreadyDone.length > 0) out.line(`  step 1 done before for ${plural(estimate.alreadyDone.length, 'photo')}: not sent again`);
  if (estimate.following.length > 0) out.line(`  step 1 already running for ${plural(estimate.following.length, 'photo')}: paid once`);
  out.line(`  ${price.steps.some((s) => s.upTo) ? 'Up to ' : ''}${credits(price.totalCost, kind)} in all` + (estimate.balance === null ? ' (balance unknown)' : ` (balance ${credits(estimate.balance, kind)})`));
  out.line(`  results → ${outputFolder}${recipe.keepSteps ? ' (each step\'s results in step-<n> folders there)' : ''}`);
}
