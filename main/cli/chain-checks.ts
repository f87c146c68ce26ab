import { describeChainStep } from '../../shared/engine/chain-mark';
import type { BatchEstimate } from '../../shared/engine/model';
import type { Recipe } from '../../shared/recipes/recipe';
import { creditKindOf, plural } from '../../shared/service/credit-kind';
import type { WorkflowDetail } from '../../shared/service/model';
import { validateWorkflowParameters } from '../../shared/service/validate-request';
import type { ChainPrice } from './chain-plan';
import { UsageError } from './errors';
import { credits } from './format';
import type { CliSession } from './session';

// A chain recipe's later steps checked before anything is spent, and the chain's estimate as the CLI says it.

/** Each later step's parameters against its workflow as the service describes it now: nothing it refuses is sent. */
export function checkLaterSteps(recipe: Recipe, workflows: WorkflowDetail[]): void {
  const problems: string[] = [];
  recipe.steps.forEach((step, index) => {
    const workflow = workflows[index + 1]!;
    const at = `steps[${index}] (${workflow.id})`;
    const checked = validateWorkflowParameters(workflow, step.parameters);
    if (!checked.ok) problems.push(...checked.problems.map((p) => `${at} ${p.field}: ${p.message}`));
    const fields = workflow.inputSchema.imageFields.map((f) => f.id);
    if (fields.length === 0) problems.push(`${at}: takes no image, so it cannot be sent the previous step's result`);
    else if (step.imageField && !fields.includes(step.imageField)) problems.push(`${at} imageField: "${step.imageField}" is not one of ${fields.join(', ')}`);
    const photo = step.imageField ?? fields[0];
    const required = workflow.inputSchema.imageFields.filter((f) => f.required && f.id !== photo);
    if (required.length > 0) problems.push(`${at}: needs ${required.map((f) => f.id).join(', ')} too; a chain step is sent one photo`);
  });
  if (problems.length > 0) {
    throw new UsageError(`recipe '${recipe.name}' no longer fits its workflows:\n  ${problems.join('\n  ')}`, 'Edit the recipe (`batchroom recipes export`, change, import) and run it again.');
  }
}

/** A later step whose price changed since the recipe was saved (its `seenCreditCost`): said, and asked like step 1's. */
export function laterStepDrift(recipe: Recipe, workflows: WorkflowDetail[]): { line: string; priceChanged: boolean }[] {
  return recipe.steps.flatMap((step, index) => {
    const workflow = workflows[index + 1]!;
    if (step.seenCreditCost === undefined || step.seenCreditCost === workflow.creditCost) return [];
    return [{ line: `recipe '${recipe.name}' step ${index + 2} (${workflow.id}): price changed ${step.seenCreditCost} → ${workflow.creditCost} credits per photo`, priceChanged: true }];
  });
}

export function reportChain(session: CliSession, recipe: Recipe, price: ChainPrice, estimate: BatchEstimate, outputFolder: string): void {
  const { out } = session;
  const kind = creditKindOf(session.status);
  if (out.json) {
    out.record({ type: 'chainEstimate', recipe: recipe.name, steps: price.steps, totalCost: price.totalCost, perPhoto: price.perPhoto, balance: estimate.balance, keepSteps: recipe.keepSteps });
    return;
  }
  out.line(`Chain of ${price.steps.length} steps, ${credits(price.perPhoto, kind)} a photo through all of them:`);
  const names = price.steps.map((p) => p.name);
  for (const s of price.steps) {
    out.line(`  ${describeChainStep({ step: s.step, steps: price.steps.length, names })}: ${s.upTo ? 'up to ' : ''}${plural(s.photos, 'photo')}, ${credits(s.credits, kind)}`);
  }
  if (estimate.alreadyDone.length > 0) out.line(`  step 1 done before for ${plural(estimate.alreadyDone.length, 'photo')}: not sent again`);
  if (estimate.following.length > 0) out.line(`  step 1 already running for ${plural(estimate.following.length, 'photo')}: paid once`);
  for (const s of estimate.skipped.slice(0, 10)) out.line(`  skip ${s.path}: ${s.reason}`);
  out.line(`  ${price.steps.some((s) => s.upTo) ? 'Up to ' : ''}${credits(price.totalCost, kind)} in all` + (estimate.balance === null ? ' (balance unknown)' : ` (balance ${credits(estimate.balance, kind)})`));
  out.line(`  results → ${outputFolder}${recipe.keepSteps ? ' (each step\'s results in step-<n> folders there)' : ''}`);
}
