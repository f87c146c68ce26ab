import type { Journal } from '../journal/journal';
import { accountIdOf } from '../service/account-id';
import type { ClaimLookup } from './planner';

/** What the planner asks the journal: who holds a unit, its claim, and whether a photo was saved by a try. */
export function journalPlanLookup(journal: Journal, client: Parameters<typeof accountIdOf>[0]): ClaimLookup {
  return {
    accountId: accountIdOf(client),
    holder: (key) => journal.claimHolder(key),
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
