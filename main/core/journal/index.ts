export { openJournal, type Journal, type ListItemsQuery } from './journal';
export { ledgerKey, parametersHash } from './ledger-key';
export type { BatchRecord, ExecutionRecord, ItemPatch, ItemRecord, LedgerEntry, NewItem } from './types';
export type { OutcomeRecord, OutcomeStream } from './outbox';
export { JournalClosedError, isJournalClosed } from './closed';
