import { AppError } from '../../shared/errors';
import { describeDrift, recipeDrift } from '../../shared/recipes/recipe-seen';
import type { Recipe } from '../../shared/recipes/recipe';
import type { WorkflowDetail } from '../../shared/service/model';
import type { RunFlags } from './run-spec';

// What changed in a recipe's workflow since it was saved, said before anything is spent (issue 32 #1/#4): a changed
// price asks (--yes, else exit 4 like a budget), a value the schema no longer takes is refused by the schema check.

const idOf = (pair: string) => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();

/** The line to say (`recipe 'X': price changed 2 → 3 credits per photo; new required field 'prompt'`), or null. */
export function recipeDriftLine(recipe: Recipe, workflow: WorkflowDetail, given: Pick<RunFlags, 'text' | 'switch'>): { line: string; priceChanged: boolean } | null {
  const supplied = new Set([...given.text.map(idOf), ...given.switch.map(idOf)]);
  const drift = recipeDrift(recipe, workflow, supplied);
  const line = describeDrift(recipe.name, drift);
  return line ? { line, priceChanged: drift.price !== null } : null;
}

/** A changed price is spent only when asked to (--yes): else exit 4, as for a budget, saying how to go on. */
export function refuseChangedPrice(drift: { line: string; priceChanged: boolean } | null, yes: boolean | undefined): void {
  if (!drift?.priceChanged || yes) return;
  throw new AppError('budget_exceeded', `${drift.line}. Nothing was sent: run again with --yes to spend at the new price, or save the recipe again (\`batchroom recipes import FILE --replace\`) to accept it.`);
}
