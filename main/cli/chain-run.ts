import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { describeChainStep } from '../../shared/engine/chain-mark';
import type { BatchEstimate, BatchSummary, ItemView } from '../../shared/engine/model';
import { chainStepSpec, keptStepFolderName, type ChainContext } from '../../shared/recipes/chain-spec';
import type { Recipe } from '../../shared/recipes/recipe';
import { creditKindOf, plural } from '../../shared/service/credit-kind';
import { specWithOutputFolder } from '../core/engine/output-folder';
import { resolveStateDir } from '../core/settings/state-dir';
import { allItems } from './batch-tracker';
import { checkLaterSteps, laterStepDrift, reportChain } from './chain-checks';
import { nextInputs, priceChain } from './chain-plan';
import { UsageError } from './errors';
import { EXIT, type ExitCode } from './exit-codes';
import { credits, fit, lineWidth } from './format';
import { followBatches } from './follow';
import { recipeRunSpec } from './recipe-run';
import type { RunFlags } from './run-spec';
import type { CliSession } from './session';
import { summarize } from './summary';
import { getWorkflowOrUsage } from './workflow-lookup';

// `run --recipe` with a chain recipe (issue 32 #3): every step is its own batch, run one after the other; step n+1
// is sent step n's results (by URL while the service has them: main/core/engine/chain-input.ts). Everything is priced
// and asked once, before step 1, and no step may spend past what was agreed (a step that returns several results a
// photo can cost more than the estimate's "up to": it is refused before it starts). Run the same command again after
// Ctrl-C, kill -9 or a failure: the done ledger and the claims make each step skip what it already did (paid once),
// so the chain resumes at the first unfinished step.

/** Where one run of a chain keeps the results of the steps before the last when the recipe does not ask to keep them. */
export const chainStepsFolder = (stateDir: string, fingerprint: string, chainId: string, step: number): string =>
  join(stateDir, 'chain-steps', fingerprint.slice(0, 16), chainId, keptStepFolderName(step));

export async function runChain(session: CliSession, recipe: Recipe, flags: RunFlags, paths: string[],
  confirm: (question: string) => Promise<boolean>): Promise<ExitCode> {
  const { call, out } = session;
  const kind = creditKindOf(session.status);
  const run = await recipeRunSpec(session, recipe, flags, paths);
  const missing = (run.spec.inputs?.paths ?? []).filter((path) => !existsSync(path));
  if (missing.length > 0) throw new UsageError(`not found: ${missing.join(', ')}`, 'Check the path; quote names that contain spaces.');
  const first = await specWithOutputFolder(run.spec);
  const workflows = [run.workflow, ...(await Promise.all(recipe.steps.map((step) => getWorkflowOrUsage(call, step.workflowId))))];
  checkLaterSteps(recipe, workflows);
  const fingerprint = first.recipe?.fingerprint ?? '';
  const stateDir = resolveStateDir({ stateDir: session.options.stateDir });
  const chainId = randomUUID();
  const context: ChainContext = {
    chainId, workflows,
    stepFolder: (step) => (recipe.keepSteps ? join(first.output.outputFolder, keptStepFolderName(step)) : chainStepsFolder(stateDir, fingerprint, chainId, step)),
  };
  const field = first.inputs.imageField ?? run.workflow.inputSchema.imageFields[0]?.id ?? 'image';
  let spec = chainStepSpec(first, recipe, context, 1, null, first.budget);
  let estimate: BatchEstimate = await call('batches:estimate', spec);
  const price = await priceChain(call, first, recipe, context, estimate, field);
  if (out.json) out.record({ type: 'recipe', name: recipe.name, fingerprint, overrides: run.overrides });
  else out.line(run.said);
  reportChain(session, recipe, price, estimate, first.output.outputFolder);
  const drift = [run.drift, ...laterStepDrift(recipe, workflows)].filter((d) => d !== null);
  for (const d of drift) if (out.json) out.record({ type: 'recipeChanged', message: d.line, priceChanged: d.priceChanged }); else out.line(d.line);
  if (price.steps.every((s) => s.photos === 0)) {
    sayNotChained(session, 'Step 1', price.notChained);
    if (out.json) out.record({ ...summarize({ batches: [], items: [] }), skipped: estimate.alreadyDone.length + estimate.skipped.length });
    else out.result(price.notChained.length > 0 ? 'Nothing sent.' : 'Nothing to process: every step is done for these photos.');
    return price.notChained.length > 0 ? EXIT.failed : EXIT.ok;
  }
  if (recipe.budgetPerPhoto != null && price.perPhoto > recipe.budgetPerPhoto) {
    throw new AppError('budget_exceeded', `A photo costs ${credits(price.perPhoto, kind)} through the ${workflows.length} steps, over recipe '${recipe.name}'s budget of ${credits(recipe.budgetPerPhoto, kind)} a photo.`);
  }
  const refuseChangedPrice = (await import('./recipe-drift')).refuseChangedPrice;
  for (const d of drift) refuseChangedPrice(d, flags.yes);
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
  const agreed = price.totalCost;
  const batches: BatchSummary[] = [];
  let lastItems: ItemView[] = [];
  let code: ExitCode = EXIT.ok;
  let spent = 0;
  for (let step = 1; step <= workflows.length; step++) {
    const title = describeChainStep({ step, steps: workflows.length, names: workflows.map((w) => w.name) });
    if (step > 1) {
      estimate = await call('batches:estimate', spec);
      // Never past what was agreed: a step returning several results a photo costs more than "up to" said.
      if (estimate.totalCost > agreed - spent + 1e-9) {
        throw new AppError('budget_exceeded', `${title} would cost ${credits(estimate.totalCost, kind)}, more than the ${credits(Math.max(0, agreed - spent), kind)} left of the ` +
          `${credits(agreed, kind)} agreed for this chain (a step made more results a photo than one). Nothing more was sent; run the same command again to see the new price.`);
      }
    }
    const stepField = spec.inputs.imageField ?? field;
    let items: ItemView[] = [];
    if (estimate.itemCount > 0) {
      const batch = await call('batches:create', spec);
      if (out.json) out.record({ type: 'batch', ...batch });
      else out.line(fit(`${title}: batch ${batch.id}, ${plural(batch.total, 'photo')}${step === workflows.length || recipe.keepSteps ? ` → ${batch.outputFolder}` : ''}`, lineWidth(process.stdout), '  '));
      const stepCode = await followBatches(session, [batch]);
      if (stepCode === EXIT.interrupted) return stepCode;
      if (code === EXIT.ok) code = stepCode;
      items = await allItems(session, batch.id);
      const finished = (await call('batches:list', {})).find((b) => b.id === batch.id) ?? batch;
      batches.push(finished);
      spent += finished.creditsSpent;
    } else if (!out.json) {
      out.line(`${title}: done before for ${plural(estimate.alreadyDone.length, 'photo')}, nothing to send`);
    }
    if (step === workflows.length) { lastItems = items; break; }
    const next = await nextInputs(call, spec, stepField, items, estimate);
    sayNotChained(session, title, next.notChained);
    if (next.notChained.length > 0 && code === EXIT.ok) code = EXIT.failed;
    if (next.files.length === 0) {
      out.notice(`${title}: no result to go on with; the chain stops here.`);
      break;
    }
    const budgetLeft = Math.max(0, Math.min(agreed, first.budget ?? Number.POSITIVE_INFINITY) - spent);
    spec = chainStepSpec(first, recipe, context, step + 1, next, budgetLeft);
  }
  // The last line a script reads: the chain's outcome (the last step's files, every step's credits).
  const summary = { ...summarize({ batches, items: lastItems }), creditsSpent: Math.round(spent * 1e6) / 1e6, chain: { steps: workflows.length, batches: batches.map((b) => b.id) } };
  if (out.json) out.record(summary);
  else out.result(`Chain done: ${plural(summary.saved, "photo")} saved by its last step, ${credits(summary.creditsSpent, kind)} spent over ${workflows.length} steps.`);
  await (await import('./bell')).ringBellAtEnd(session);
  return code;
}

/** Photos a step did before outside this chain: named (a few), with how to go on. */
function sayNotChained(session: CliSession, title: string, paths: string[]): void {
  for (const path of paths.slice(0, 10)) {
    session.out.notice(`${title}: ${path} was done before outside this chain (its files are deliverables, not the step's result): it stops here; --rerun runs it again.`);
  }
  if (paths.length > 10) session.out.notice(`  … and ${paths.length - 10} more`);
}
