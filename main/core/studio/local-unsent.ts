import { ITEM_STATES, type ItemState } from '../../../shared/engine/model';
import { statesOf } from '../../../shared/engine/item-states';
import type { Journal } from '../journal/journal';
import { ledgerKey, parametersHash } from '../journal/ledger-key';

// What the local journal knows about a studio claim left `submitting` by this instance's previous run: whether the
// photo is back to be sent and none of its items may have been sent. Asked at the ledger's start, after the engine's
// recovery (which made every item that was `submitting` `unknown`), so `pending` here means "put back, unsent".

/** Never sent: waiting to be (an item put back at a stop is `pending`), or cancelled before anything left. */
const UNSENT: readonly ItemState[] = statesOf('unsent');
const NEVER_SENT: ReadonlySet<ItemState> = new Set([...UNSENT, 'cancelled']);
/** Everything else may have reached the service (failed includes a 5xx the service may have started). */
const MAYBE_SENT: readonly ItemState[] = ITEM_STATES.filter((state) => !NEVER_SENT.has(state));

/** `key` → true when the journal has an unsent hot-folder item for it and no item of it that may have been sent. */
export function localUnsentKeys(journal: Journal): (key: string) => boolean {
  return (key) => {
    let unsent = false;
    for (const batch of journal.listBatches()) {
      if (batch.spec.source.kind !== 'hotFolder') continue;
      const ph = parametersHash(batch.spec.parameters);
      const isKey = (item: { contentHash: string | null }) => item.contentHash !== null && ledgerKey(item.contentHash, batch.spec.workflowId, ph) === key;
      if (journal.itemsInStates(batch.id, MAYBE_SENT).some(isKey)) return false;
      if (journal.itemsInStates(batch.id, UNSENT).some(isKey)) unsent = true;
    }
    return unsent;
  };
}

/** Items read at a time by localClaimKeys: a journal of 100k photos is never loaded at once. */
const PAGE = 1_000;

/**
 * Of `keys` (this instance's claims still `claimed` in the studio ledger at start), those the local journal has any
 * record of: an item of a hot-folder batch in any state (the engine resumes it, or its outcome is settled) or a
 * done-ledger entry. Read once over the hot-folder batches, a page at a time, only when there are such claims.
 */
export function localClaimKeys(journal: Journal): (keys: readonly string[]) => Set<string> {
  return (keys) => {
    const wanted = new Set(keys);
    const known = new Set(keys.filter((key) => journal.ledgerHas(key)));
    for (const batch of journal.listBatches()) {
      if (batch.spec.source.kind !== 'hotFolder' || known.size === wanted.size) continue;
      const ph = parametersHash(batch.spec.parameters);
      for (let page = journal.itemsPage(batch.id, null, PAGE); ; page = journal.itemsPage(batch.id, page.next, PAGE)) {
        for (const item of page.items) {
          if (item.contentHash === null) continue;
          const key = ledgerKey(item.contentHash, batch.spec.workflowId, ph);
          if (wanted.has(key)) known.add(key);
        }
        if (!page.next) break;
      }
    }
    return known;
  };
}
