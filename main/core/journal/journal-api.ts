import type { ItemEvent } from '../../../shared/engine/item-states';
import type { BatchState, ItemState, PauseCode } from '../../../shared/engine/model';
import type { OutcomeStream } from './outbox';
import type { BalanceEvidenceStore } from './evidence-store';
import type { ClaimStore } from './claims';
import type { ReportReads } from './report-reads';
import type { BatchOrderStore } from './batch-order';
import type { ChainLinkStore } from './chain-links';
import type { CompactOptions, CompactResult } from './compact';
import type { BatchRecord, ExecutionRecord, ItemChange, ItemRecord, LedgerEntry, NewItem } from './types';

// What the journal offers (journal.ts implements it over SQLite).

export interface ListItemsQuery {
  batchId: string;
  offset?: number;
  limit?: number;
  states?: readonly ItemState[];
}

/** Where a page of items ended (journal-reads.ts itemsPage). */
export interface ItemCursor {
  position: number;
  rowid: number;
}

export interface ItemWriteOptions {
  /** fsync before returning (synchronous=FULL, on this thread); the engine's hot path uses whenDurable() instead. */
  durable?: boolean;
  ledger?: LedgerEntry;
}

/** The journal: batches, items and executions, the done ledger, and the outcome outbox (outbox.ts). */
export interface Journal extends OutcomeStream, BalanceEvidenceStore, ClaimStore, BatchOrderStore, ReportReads, ChainLinkStore {
  readonly path: string;
  /** Journals a batch and its items; `within` (item updates) runs in the same transaction: all of it, or none. */
  createBatch(batch: BatchRecord, items: readonly NewItem[], within?: () => void): void;
  getBatch(id: string): BatchRecord | null;
  listBatches(): BatchRecord[];
  /** Ids of batches in a state, in submit order: priority (higher first), then queue order (batch-order.ts); cheap. */
  batchIdsInState(state: BatchState): string[];
  updateBatch(id: string, patch: { state?: BatchState; pausedReason?: string | null; pauseCode?: PauseCode | null }): void;
  getItem(id: string): ItemRecord | null;
  listItems(query: ListItemsQuery): { total: number; items: ItemRecord[] };
  /** A page of a batch's items in position order after `after` (null: from the start); `next` continues it (null: done). */
  itemsPage(batchId: string, after: ItemCursor | null, limit: number): { items: ItemRecord[]; next: ItemCursor | null };
  /** Items of a batch in the given states, in queue order. */
  itemsInStates(batchId: string | null, states: readonly ItemState[], limit?: number): ItemRecord[];
  countByState(batchId: string): Partial<Record<ItemState, number>>;
  /** Sum of per-item progress (0–100) over items of the batch in the given states. */
  progressSum(batchId: string, states: readonly ItemState[]): number;
  /**
   * Updates an item's fields; a change with an `event` also moves its state through the item state machine
   * (shared/engine/item-states.ts), which refuses a move it does not list. durable: fsync before returning (use
   * before acting on the change outside the process). ledger: records this done-ledger entry in the same
   * transaction, so a crash can never leave a saved item the ledger does not know (it would be paid for again).
   */
  updateItem(id: string, change: ItemChange, options?: ItemWriteOptions): void;
  /** Item → submitted (event accept, or adopt) with its execution id, the execution row and the batch's spend, in one transaction. */
  recordAccepted(itemId: string, executionId: string, credits: number, at: string, event?: 'accept' | 'adopt', options?: { sync?: 'now' | 'deferred' }): void;
  /**
   * Resolves once every commit made before the call is on disk, power cut included (durable-sync.ts: one fdatasync
   * of the WAL off this thread, shared by the callers that wait together). A write made without `durable` and then
   * awaited here is as durable as one made with it, without blocking the event loop for the disk.
   */
  whenDurable(): Promise<void>;
  /** Refund (execution-failed): item → failed, its charge back to 0 and the batch's spend reduced. */
  recordRefund(itemId: string, reason: string, at: string): void;
  updateExecution(id: string, patch: { status: string; error?: string | null; completedAt?: string | null }): void;
  listExecutions(batchId?: string): ExecutionRecord[];
  /** Applies `event` to every item of the batch in a state that allows it (one transaction); returns the ids moved. */
  transitionAll(batchId: string, event: ItemEvent, patch?: Omit<ItemChange, 'event'>): string[];
  /** Renumbers pending items of a batch in the given order (ids not pending are ignored). */
  setPositions(batchId: string, orderedIds: readonly string[]): void;
  ledgerHas(key: string): boolean;
  ledgerGet(key: string): LedgerEntry | null;
  ledgerRecord(entry: LedgerEntry): void;
  /** Photos the ledger has as saved with the recipe of this fingerprint (`recipes show`). */
  ledgerCountByRecipe(fingerprint: string): number;
  /** Removes the saved and skipped items of batches finished before a moment, keeping what needs them (compact.ts). */
  compact(options: CompactOptions): CompactResult;
  close(): void;
}
