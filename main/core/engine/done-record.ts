import { unknownEntry } from '../journal/done-ledger';
import type { BatchRecord, ItemChange, ItemRecord, LedgerEntry } from '../journal/types';
import type { RunnerCore } from './runner-core';

// An item's change and its done-ledger entry go together: when the ledger is the engine's own journal they are one
// transaction (a crash keeps both or neither, so a saved or possibly-charged photo is never unknown to the ledger and
// paid for again by a later batch); another ledger (a studio's shared one) is written right after.

export async function updateWithLedger(core: RunnerCore, itemId: string, change: ItemChange, entry: LedgerEntry | undefined): Promise<ItemRecord> {
  const ledger = core.o.doneLedger;
  const inJournal = ledger.journal !== undefined && ledger.journal === core.o.journal;
  const item = core.update(itemId, change, inJournal ? { ledger: entry } : {});
  if (entry && !inJournal) await recordLedger(core, entry);
  return item;
}

/** Records an entry outside an item change (failures are logged: the item itself is already journalled). */
export async function recordLedger(core: RunnerCore, entry: LedgerEntry): Promise<void> {
  await core.o.doneLedger.record(entry).catch((error: unknown) => core.o.logger.warn('done ledger not updated', { itemId: entry.itemId, error: String(error) }));
}

/** The ledger entry of an item charged (or maybe charged) without a result (none without a content hash). */
export function lostEntryOf(item: ItemRecord, batch: BatchRecord, at: string, outcome: 'unknown' | 'charged-no-result' = 'unknown'): LedgerEntry | undefined {
  if (!item.contentHash) return undefined;
  return unknownEntry(batch.spec, {
    id: item.id, contentHash: item.contentHash, sourcePath: Object.values(item.sources)[0] ?? '', executionId: item.executionId,
  }, at, outcome);
}
