import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { recipeFingerprint } from '../../shared/recipes/fingerprint';
import type { Recipe } from '../../shared/recipes/recipe';
import { describeDrift, recipeDrift, seenOf } from '../../shared/recipes/recipe-seen';
import type { WorkflowDetail } from '../../shared/service/model';
import { resolveStateDir } from '../core/settings/state-dir';
import { sessionAccount } from './recipe-run';
import { globalOptions, openSession, type CliSession } from './session';

// `recipes import` and `recipes show` work on files and need no service, but when the catalog is reachable they say
// more: import keeps what the recipe saw of its workflow (price, fields: item 4), show says what changed since and
// how many photos the recipe has done (the ledger, on this account). A service that cannot be reached costs nothing.

/** A session without the engine for `body`, or null when none can be opened (nothing is said: the command stands alone). */
async function withCatalog<T>(command: Command, body: (session: CliSession) => Promise<T>): Promise<T | null> {
  let session: CliSession;
  try {
    session = await openSession(command, { withEngine: false });
  } catch {
    return null;
  }
  try {
    return await body(session);
  } catch {
    return null;
  } finally {
    await session.close().catch(() => undefined);
  }
}

const workflowOf = (session: CliSession, id: string): Promise<WorkflowDetail> => session.call('workflows:get', { id });

/**
 * The recipe with the price and fields its workflow has now, when the recipe does not carry them yet (a file saved
 * on another computer keeps its own, so a later run says what changed since it was saved there), and the line to say
 * when they differ from now. Null: the catalog cannot be reached, or the workflow is not there.
 */
export async function withSeenFacts(command: Command, recipe: Recipe): Promise<{ recipe: Recipe; changed: string | null } | null> {
  return withCatalog(command, async (session) => {
    const workflow = await workflowOf(session, recipe.workflowId);
    const changed = describeDrift(recipe.name, recipeDrift(recipe, workflow));
    if (recipe.seenCreditCost !== undefined && recipe.seenSchema !== undefined) return { recipe, changed };
    return { recipe: { ...recipe, ...seenOf(workflow) }, changed };
  });
}

/** How many photos the ledger has as saved with this recipe's fingerprint on the account in use, and what changed since it was saved. */
export async function recipeUse(command: Command, recipe: Recipe): Promise<{ done: number; changed: string | null } | null> {
  return withCatalog(command, async (session) => {
    const fingerprint = recipeFingerprint(recipe, sessionAccount(session));
    const stateDir = resolveStateDir({ stateDir: globalOptions(command).stateDir });
    let done = 0;
    if (existsSync(join(stateDir, 'journal.db'))) {
      const { openJournal } = await import('../core/journal/journal');
      const journal = openJournal(stateDir);
      try {
        done = journal.ledgerCountByRecipe(fingerprint);
      } finally {
        journal.close();
      }
    }
    const changed = await workflowOf(session, recipe.workflowId).then((w) => describeDrift(recipe.name, recipeDrift(recipe, w)), () => null);
    return { done, changed };
  });
}
