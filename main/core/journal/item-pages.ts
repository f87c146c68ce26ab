import type { Journal } from './journal';
import type { ItemRecord } from './types';

/**
 * Every item of a batch in position order, read a page at a time: a 100k-item batch is never one query's answer
 * held at once, and callers that only look at each item keep no list. A journal continues each page where the last
 * ended (keyset: one pass over the batch's index); a reader with only `listItems` pages by offset.
 */
export function* itemsOfBatch(journal: Pick<Journal, 'listItems'> & Partial<Pick<Journal, 'itemsPage'>>, batchId: string, pageSize = 1000): Generator<ItemRecord> {
  if (journal.itemsPage) {
    for (let page = journal.itemsPage(batchId, null, pageSize); ; page = journal.itemsPage(batchId, page.next!, pageSize)) {
      yield* page.items;
      if (!page.next) return;
    }
  }
  for (let offset = 0; ; offset += pageSize) {
    const page = journal.listItems({ batchId, offset, limit: pageSize });
    yield* page.items;
    if (page.items.length < pageSize) return;
  }
}
