import { inClaimGroup } from '../../../shared/engine/claim-states';
import type { Journal } from '../journal/journal';
import { accountIdOf } from '../service/account-id';
import type { ClaimLookup } from './planner';

/**
 * Photos between two looks at whether any batch is running. With none, no item can hold a unit (the holder's item is
 * an open item of a running batch): the photo's claim alone is asked — one query a photo instead of two, the join of
 * items and batches being ≈ 7 % of a 100k warm estimate (profile). A batch started meanwhile is seen within this many
 * photos; one missed in between is still never paid twice: its submit meets the claim (journal/claims.ts).
 */
const RUNNING_LOOK_EVERY = 256;

/** What the planner asks the journal: who holds a unit, its claim, and whether a photo was saved by a try. */
export function journalPlanLookup(journal: Journal, client: Parameters<typeof accountIdOf>[0]): ClaimLookup {
  let asked = 0;
  let anyRunning = true;
  return {
    accountId: accountIdOf(client),
    holder: (key) => {
      if (asked++ % RUNNING_LOOK_EVERY === 0) anyRunning = journal.batchIdsInState('running').length > 0;
      if (anyRunning) return journal.claimHolder(key);
      const claim = journal.claimGet(key);
      return { claim: claim && inClaimGroup('open', claim.state) ? claim : null, item: null };
    },
    claim: (key) => journal.claimGet(key),
    // The journal knows the item that saved each ledger entry, and so the batch: a try-first one ("Try on 3 photos
    // first") tried it, and continuing that try does not make it an item again.
    savedByTrial: (key) => {
      const itemId = journal.ledgerGet(key)?.itemId;
      const item = itemId ? journal.getItem(itemId) : null;
      return item !== null && item.state === 'saved' && Boolean(journal.getBatch(item.batchId)?.spec.tryFirst);
    },
  };
}
