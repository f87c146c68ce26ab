import type { Command } from 'commander';
import { describeResultFile } from '../../../shared/engine/result-file';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { AppError } from '../../../shared/errors';
import { describeAlreadyDone, describeFollowing, describeResultsGone } from '../../../shared/engine/done-summary';
import type { BatchEstimate } from '../../../shared/engine/model';
import { DEFAULT_OUTPUT_FOLDER_NAME } from '../../../shared/engine/output-defaults';
import { describeRawPairs, describeSkip } from '../../../shared/engine/skip-text';
import { UsageError } from '../errors';
import { getWorkflowOrUsage } from '../workflow-lookup';
import { EXIT } from '../exit-codes';
import { credits, fit, lineWidth } from '../format';
import { creditKindOf, plural, type CreditKind } from '../../../shared/service/credit-kind';
import { collect } from '../flags';
import type { RunFlags } from '../run-spec';
import type { CliSession, Output } from '../session';
import { globalOptions, withSession } from '../session';
import type { BatchSpecInput } from '../../../shared/engine/model';
import type { Recipe } from '../../../shared/recipes/recipe';
import type { WorkflowDetail } from '../../../shared/service/model';
import type { SummaryLine } from '../summary';

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('send photos through a workflow and save the results')
    .argument('[paths...]', 'photos and folders')
    .option('--workflow <id>', 'workflow id, required without --recipe (see `batchroom workflows`)')
    .option('--recipe <name|file>', 'run a saved recipe (see `batchroom recipes list`) or a .batchroom-recipe.json file; flags given beside it replace its values')
    .option('--text <field=value>', 'a text field value (repeatable)', collect, [])
    .option('--switch <field=a,b>', 'switch options to turn on (repeatable)', collect, [])
    .option('--mapping <field=path,…>', 'multi-image workflows: one item from explicit files (repeatable)', collect, [])
    .option('--aspect <ratio>', 'output aspect ratio, e.g. 16:9')
    .option('--size <size>', 'output size: 1K or 2K')
    .option('--image-field <field>', 'the image field single files are sent as')
    .option('--out <dir>', `output folder (default: the one in settings, else a "${DEFAULT_OUTPUT_FOLDER_NAME}" folder next to the photos, as in the app)`)
    .option('--recursive', 'include photos in subfolders (mirrored in the output)')
    .option('--naming <template>', 'output names, e.g. "{name}_{workflow}{ext}"')
    .option('--on-collision <policy>', 'when a result name exists: suffix, skip or overwrite')
    .option('--format <format>', 'result file format: source (default: the original\'s; HEIC, AVIF and RAW become JPEG), jpeg, png, tiff or webp')
    .option('--quality <1-100>', 'JPEG and WebP quality (default 92)')
    .option('--colour <policy>', 'result colour space: srgb (default) or source (back into the original\'s Display P3, Adobe RGB or ProPhoto)')
    .option('--metadata <policy>', 'what results keep of the originals\' metadata: keep (default), strip-gps or strip')
    .option('--sidecar <kind>', 'a provenance file next to each result: none (default), json or xmp (<result stem>.xmp, read by Lightroom and Capture One)')
    .option('--raw-pairs <half>', 'a RAW and a JPEG of the same name are one photo, edited from: jpeg (default), raw (its embedded preview) or both')
    .option('--budget <credits>', 'never spend more than this on the batch')
    .option('--try <n>', 'try first: run only n photos spread across the selection; run again without --try to continue (the tried ones are not paid again)')
    .option('--priority <n>', 'queue priority -100…100 (default 0): higher is sent before other batches waiting in the engine')
    .option('--rerun', 'also run photos already done with this workflow and parameters (pays for them again)')
    .option('--job <name>', 'the job the batch is for: `batchroom report --by job` adds its credits up')
    .option('--client <name>', 'the client the batch is for: `batchroom report --by client` adds its credits up')
    .option('-y, --yes', 'do not ask before spending credits')
    .option('--progress', 'show the estimate\'s progress line on stderr even without a terminal (after 1 s; Ctrl-C cancels it)')
    .action(async (paths: string[], flags: RunFlags, command: Command) => {
      // Checked here, not by commander's requiredOption: its message cannot say where the ids are listed.
      if (!flags.workflow && !flags.recipe) throw new UsageError('--workflow is required.', '`batchroom workflows` lists them; for example: batchroom run --workflow <id> photos/');
      // A recipe is read and its fixed images checked before anything starts: a missing one is an exit 2, nothing made.
      const recipe = flags.recipe ? await (await import('../recipe-run')).openRecipe(flags.recipe, globalOptions(command).stateDir) : null;
      return withSession(command, async (session) => {
        // A chain (a recipe with steps) runs each step as its own batch, priced and asked once (chain-run.ts).
        if (recipe && recipe.steps.length > 0) return (await import('../chain-run')).runChain(session, recipe, flags, paths, confirm);
        const { call, out } = session;
        const { spec, workflow, overrides, said, drift } = recipe
          ? await (await import('../recipe-run')).recipeRunSpec(session, recipe, flags, paths)
          : await plainRunSpec(session, flags, paths);
        // A typo is a usage error, not an empty batch: say which path, exit 2.
        const missing = (spec.inputs?.paths ?? []).filter((path) => !existsSync(path));
        if (missing.length > 0) throw new UsageError(`not found: ${missing.join(', ')}`, 'Check the path; quote names that contain spaces.');
        const kind = creditKindOf(session.status);
        const estimate = await (await import('../estimate-progress')).estimateWithProgress(session, spec, { progress: flags.progress });
        if (recipe) reportRecipe(out, recipe, spec.recipe?.fingerprint ?? '', overrides, said);
        reportEstimate(out, estimate, workflow.name, kind);
        // A workflow changed since the recipe was saved: said with the estimate; a new price needs --yes (exit 4).
        if (drift && out.json) out.record({ type: 'recipeChanged', message: drift.line, priceChanged: drift.priceChanged });
        else if (drift) out.line(drift.line);
        if (estimate.itemCount === 0) {
          const summary: SummaryLine = { type: 'summary', saved: 0, failed: 0, skipped: estimate.skipped.length + (estimate.rerun ? 0 : estimate.alreadyDone.length), unknown: 0, chargedNoResult: 0, creditsSpent: 0, outputs: [], paidElsewhere: 0 };
          if (out.json) out.record(summary);
          else out.result(estimate.alreadyDone.length > 0 && !estimate.rerun
            ? `Nothing to process. Pass --rerun to run the ${estimate.alreadyDone.length} already done again (${credits(estimate.alreadyDone.length * estimate.costPerItem)}).`
            : 'Nothing to process.');
          return EXIT.ok;
        }
        // Continue (the same command without --try): a trial of this recipe with another fingerprint is said and asked.
        if (recipe && !flags.try) {
          const check = await import('../continue-check');
          if (!(await check.confirmContinue(session, await check.changedTrial(session, recipe, spec, paths), flags.yes, confirm))) {
            process.stderr.write('Nothing was sent.\n');
            return EXIT.ok;
          }
        }
        if (recipe?.budgetPerPhoto != null && estimate.costPerItem > recipe.budgetPerPhoto) {
          throw new AppError('budget_exceeded', `A photo costs ${credits(estimate.costPerItem, kind)}, over recipe '${recipe.name}'s budget of ${credits(recipe.budgetPerPhoto, kind)} a photo.`);
        }
        (await import('../recipe-drift')).refuseChangedPrice(drift, flags.yes);
        if (!estimate.fitsBudget) {
          throw new AppError('budget_exceeded', `This batch costs ${credits(estimate.totalCost, kind)}, over the budget of ${credits(Number(flags.budget), kind)}.`);
        }
        if (!estimate.fitsBalance) {
          throw new AppError('insufficient_credits', `This batch costs ${credits(estimate.totalCost, kind)} but the balance is ${credits(estimate.balance ?? 0, kind)}.`);
        }
        if (!flags.yes && !(await confirm(`Spend up to ${credits(estimate.totalCost, kind)} on ${plural(estimate.itemCount, 'photo')}? [y/N] `))) {
          process.stderr.write('Nothing was sent.\n');
          return EXIT.ok;
        }
        // Loaded once the run is to start, not before its estimate: an estimate (or a run refused at its price) never
        // waits for the progress bars; and before the batch is created, so nothing new sits between it and following it.
        const { followBatches } = await import('../follow');
        const batch = await call('batches:create', spec);
        if (out.json) out.record({ type: 'batch', ...batch });
        else out.line(fit(`Batch ${batch.id} started: ${plural(batch.total, 'photo')} → ${batch.outputFolder}`, lineWidth(process.stdout), '  '));
        const code = await followBatches(session, [batch]);
        if (estimate.trial && estimate.trial.rest > 0 && !out.json) {
          out.line(fit(`Tried on ${plural(estimate.trial.tried, 'photo')}: look at them in ${batch.outputFolder}. To continue with the other ${estimate.trial.rest} ` +
            `(${credits(estimate.trial.rest * estimate.costPerItem, kind)}), run the same command without --try: the tried photos are done and are not sent or paid for again.`, lineWidth(process.stdout), ''));
        }
        await (await import('../bell')).ringBellAtEnd(session);
        return code;
      }, { withEngine: 'lazy' });
    });
}

async function plainRunSpec(session: CliSession, flags: RunFlags, paths: string[]): Promise<{ spec: BatchSpecInput; workflow: WorkflowDetail; overrides: string[]; said: string; drift: null }> {
  const [{ buildRunSpec }, workflow, { settings }] = await Promise.all([
    import('../run-spec'), getWorkflowOrUsage(session.call, flags.workflow), session.call('settings:get', {}),
  ]);
  return { spec: buildRunSpec(flags, paths, workflow, settings), workflow, overrides: [], said: '', drift: null };
}

/** One line before the estimate: which recipe, and which of its values a flag replaced. */
function reportRecipe(out: Output, recipe: Recipe, fingerprint: string, overrides: string[], said: string): void {
  if (out.json) out.record({ type: 'recipe', name: recipe.name, fingerprint, overrides });
  else out.line(said);
}

function reportEstimate(out: Output, estimate: BatchEstimate, workflowName: string, kind: CreditKind): void {
  if (out.json) {
    out.record({ type: 'estimate', ...estimate });
    return;
  }
  out.line(`${workflowName}: ${plural(estimate.itemCount, 'photo')} × ${credits(estimate.costPerItem, kind)} = ${credits(estimate.totalCost, kind)}` +
    (estimate.balance === null ? ' (balance unknown)' : ` (balance ${credits(estimate.balance, kind)})`));
  const pairs = describeRawPairs(estimate.skipped);
  if (pairs) out.line(`  ${pairs}`);
  const listed = estimate.skipped.filter((s) => !s.rawPair);
  for (const s of listed.slice(0, 20)) out.line(`  skip ${s.path}: ${describeSkip(s, 'cli')}`);
  if (listed.length > 20) out.line(`  … and ${listed.length - 20} more skipped`);
  for (const d of estimate.duplicates.slice(0, 20)) out.line(`  duplicate ${d.path} (same as ${d.duplicateOf}): sent once`);
  if (estimate.alreadyDone.length > 0) {
    out.line(estimate.rerun
      ? `  ${describeAlreadyDone(estimate.alreadyDone)}: running them again (--rerun)`
      : `  ${describeAlreadyDone(estimate.alreadyDone)}: skipped (--rerun runs them again for ${credits(estimate.alreadyDone.length * estimate.costPerItem)})`);
  }
  if (estimate.following.length > 0) out.line(`  ${describeFollowing(estimate.following)}`);
  if (estimate.resultsGone.length > 0) {
    out.line(`  ${describeResultsGone(estimate.resultsGone)} (${credits(estimate.resultsGone.length * estimate.costPerItem)})`);
  }
  if (estimate.resultFile) out.line(`  ${describeResultFile(estimate.resultFile)}`);
  if (estimate.deliverables.length > 1) {
    out.line(`  Each photo becomes ${estimate.deliverables.length} files, paid once:`);
    for (const line of describeDeliverables(estimate.deliverables)) out.line(`    ${line}`);
  }
  if (estimate.trial) out.line(`  try first: ${plural(estimate.trial.tried, 'photo')} now (${credits(estimate.costPerItem * estimate.trial.tried, kind)}), ${estimate.trial.rest} more when you continue (${credits(estimate.costPerItem * estimate.trial.rest, kind)})`);
  const shown = estimate.namingPreview.slice(0, 3);
  for (const n of shown) out.line(`  ${n.source} → ${n.output}${n.note ? ` (${n.note})` : ''}`);
  const more = estimate.namingPreviewMore + estimate.namingPreview.length - shown.length;
  if (more > 0) out.line(`  … and ${more} more`);
}

/** Asks on the terminal; without one, spending needs an explicit --yes (a script must say so). */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new UsageError('Refusing to spend credits without confirmation: no terminal to ask on.', 'Pass --yes to run without asking.');
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
