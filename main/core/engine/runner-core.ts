import type { BatchPause } from '../../../shared/engine/model';
import type { BalanceCheck, BalanceCheckOptions } from './balance-check';
import type { PhaseTotals } from './phase-times';
import type { DoneLedger } from '../journal/done-ledger';
import type { Journal } from '../journal/journal';
import type { ItemWriteOptions } from '../journal/journal-api';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { CreditGuard } from './credit-guard';
import type { RequestGate } from './limiter';
import type { ResultMetadataWriter } from '../images/result-metadata';

// What the runner's parts share. The runner owns the state that several parts touch (the batch cache, the
// ready-to-submit payloads, the in-flight task set) and hands itself to each part as a RunnerCore, so a part sees
// only the few operations it needs rather than the whole scheduler.

/**
 * Someone else who must hear about a submission at the two moments money depends on — the studio ledger shared by
 * several machines. The local journal is always written first; these run right after it.
 */
export interface SubmitHooks {
  /**
   * Before the request leaves. Throwing AppError 'conflict' means another instance owns the item: it is cancelled
   * here, never sent. Any other error (the ledger unreachable) puts it back in the queue to try again later.
   */
  beforeSubmit(item: ItemRecord, batch: BatchRecord): Promise<void>;
  /** The execution id, before anything else happens after the submit answers. Retried until it is recorded. */
  accepted(item: ItemRecord, batch: BatchRecord, executionId: string): Promise<void>;
  /**
   * The submission was put back without its request leaving (a stop while it waited, an answered refusal): what
   * beforeSubmit marked goes back, so nothing says "may have been charged" about a photo that was never sent.
   */
  notSent?(item: ItemRecord, batch: BatchRecord): Promise<void>;
  /**
   * Right before a result gets its final name: is the photo still this instance's? Not ours: another instance took it
   * over (this one was paused past its lease) and saves it. Throws AppError 'unavailable' when it cannot tell.
   */
  beforePlace?(item: ItemRecord, batch: BatchRecord): Promise<PlacementVerdict>;
}

export type PlacementVerdict = { ours: true } | { ours: false; reason: string };

export interface RunnerOptions {
  journal: Journal;
  client: ServiceClient;
  logger: Logger;
  concurrency: number;
  encodeConcurrency?: number;
  downloadConcurrency?: number;
  /** Size cap of the result cache (result-cache.ts). */
  resultCacheBytes?: number;
  requestsPerSecond?: number;
  maxSubmitAttempts?: number;
  maxInputPixels?: number;
  balanceRefreshMs?: number;
  now: () => Date;
  onItem: (item: ItemRecord) => void;
  onBatch: (batchId: string) => void;
  onOffline: (offline: boolean) => void;
  /** The studio ledger's part in every submission (absent on a single machine). */
  submitHooks?: SubmitHooks;
  /** Where a saved item is recorded as done (content + workflow + parameters), so no way in pays for it again. */
  doneLedger: DoneLedger;
  /** Writes each result's metadata before it gets its final name. */
  resultMetadata?: ResultMetadataWriter;
  /** Judging lost submissions by the balance (balance-check.ts); false turns it off (studio mode always does). */
  balanceEvidence?: false | BalanceCheckOptions;
}

export interface EngineStats {
  uploadBytes: number;
  originalBytes: number;
  encoded: number;
  submits: number;
  statusRequests: number;
  downloads: number;
  /** Chain steps sent as the previous step's result URL (nothing uploaded) / uploaded from the saved file instead. */
  chainUrls: number;
  chainUploads: number;
  /** Time per phase of an execution's life (phase-times.ts). */
  phases: PhaseTotals;
  /**
   * What the runner holds in memory right now (batches cached, ready payloads, originals kept, executions followed,
   * downloads, encodes): each bounded by the window in flight, never by a batch's size (issue 34, item 2).
   */
  held?: Record<string, number>;
}

/** An encoded item waiting for an execution slot: its upload payload (data URLs or remote URLs) per image field. */
export interface ReadyPayload {
  batchId: string;
  images: Record<string, string>;
  /** When it became ready (nowMs), for the wait-for-slot phase. */
  readyAt: number;
}

/**
 * One submission between its `submitting` write and its request. `sending` and `abandoned` are set synchronously
 * and each only while the other is false, so the stop's put-back and the send exclude each other.
 */
export interface SendTicket {
  /** The stop put the item back for it: it must neither write nor send. */
  abandoned: boolean;
  /** Past the last check: its request leaves now, nothing puts it back any more. */
  sending: boolean;
}

export interface RunnerCore {
  readonly o: RunnerOptions;
  readonly gate: RequestGate;
  readonly stats: EngineStats;
  readonly credits: CreditGuard;
  readonly evidence: BalanceCheck;
  /** Encoded payloads in submission order (a Map keeps insertion order). */
  readonly ready: Map<string, ReadyPayload>;
  isStopping(): boolean;
  /**
   * A submission's last wait before its request leaves (the gate, the studio ledger). A non-graceful stop waits for
   * these (bounded) so that each has put its item back before the journal closes, and none sends; one still waiting
   * when that wait runs out is put back by the stop itself (`putBack`, the ticket marked abandoned).
   */
  beforeSend(itemId: string, ticket: SendTicket, putBack: () => void, wait: Promise<boolean>): Promise<boolean>;
  /** Runs a background task; stop({ graceful }) waits for every one still running. */
  run(work: () => Promise<unknown>): void;
  /** Journals an item change, tells the listeners, and completes the batch when this was its last open item. */
  update(itemId: string, patch: Parameters<Journal['updateItem']>[1], options?: ItemWriteOptions): ItemRecord;
  /** Schedules a scheduling pass. */
  kick(): void;
  batch(id: string): BatchRecord;
  refreshBatch(id: string): BatchRecord;
  /** A pause carries its code and message (null for any other state). */
  setBatchState(id: string, state: BatchRecord['state'], pause: BatchPause | null): void;
  checkBatchDone(batchId: string): void;
}
