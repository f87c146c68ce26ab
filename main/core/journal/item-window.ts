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
 * queue order, and how many match. How many is the sum of the batch's per-state counters (migration 15), and the
 * page a range of one index on (batch_id, state, position) — items_open for moving states, items_settled for
 * finished ones — so "Failed" in a 100k batch reads its own rows only (bench/scale-journal.ts, part `counts`).
 */
export function readItemWindow(journal: Pick<Journal, 'listItems'>, query: ItemWindowRead): { total: number; items: ItemRecord[] } {
  const states = statesOfFilter(query.filter);
  return journal.listItems({ batchId: query.batchId, offset: query.offset, limit: query.limit, ...(states ? { states } : {}) });
}
