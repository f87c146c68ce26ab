import { AppError } from '../../../shared/errors';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { itemWindowChannels } from '../../../shared/ipc/channels/item-window';
import { toItemView } from '../engine/projection';
import type { Journal } from '../journal';
import { readItemWindow } from '../journal/item-window';

/**
 * `batches:itemWindow`: the Queue and Review lists ask for the rows they show (a filter, an offset, a few hundred),
 * read from the journal by index; a 100k-item batch never crosses IPC whole.
 */
export function createItemWindowHandlers(journalOf: () => Promise<Pick<Journal, 'getBatch' | 'listItems'>>): DomainHandlers<typeof itemWindowChannels> {
  return {
    'batches:itemWindow': async ({ batchId, filter, offset, limit }) => {
      const journal = await journalOf();
      if (!journal.getBatch(batchId)) throw new AppError('not_found', `No batch ${batchId}.`);
      const page = readItemWindow(journal, { batchId, filter, offset, limit });
      return { batchId, filter, offset, total: page.total, items: page.items.map(toItemView) };
    },
  };
}
