import { statesOfFilter, type ItemFilter } from '../../../shared/ipc/channels/item-window';
import type { Journal } from './journal-api';
import type { ItemRecord } from './types';

export interface ItemWindowRead {
  batchId: string;
  filter: ItemFilter;
  offset: number;
  limit: number;
}

/**
 * One window of a batch's items for the Queue and Review lists: `limit` items matching `filter` from `offset`, in
 * queue order, and how many match. No counts per state: the batch summary carries them, and a GROUP BY over a 100k
 * batch costs more than the page (bench/scale-ui.ts). The filter is in the query (items_by_state / items_by_batch);
 * an index on (batch_id, state, position) would make every filter's page a covering range scan (docs/performance.md).
 */
export function readItemWindow(journal: Pick<Journal, 'listItems'>, query: ItemWindowRead): { total: number; items: ItemRecord[] } {
  const states = statesOfFilter(query.filter);
  return journal.listItems({ batchId: query.batchId, offset: query.offset, limit: query.limit, ...(states ? { states } : {}) });
}
