import type { Journal } from './journal';
import type { ItemRecord } from './types';

/**
 * Every item of a batch in position order, read a page at a time: a 100k-item batch is never one query's answer
 * held at once, and callers that only look at each item keep no list.
 */
export function* itemsOfBatch(journal: Pick<Journal, 'listItems'>, batchId: string, pageSize = 1000): Generator<ItemRecord> {
  for (let offset = 0; ; offset += pageSize) {
    const page = journal.listItems({ batchId, offset, limit: pageSize });
    yield* page.items;
    if (page.items.length < pageSize) return;
  }
}
