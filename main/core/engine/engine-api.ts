import type {
  BatchEstimate, BatchSpecInput, BatchSummary, ItemState, ItemView, ServiceUnreachable, Verdict,
} from '../../../shared/engine/model';
import type { ProviderReportRow } from '../../../shared/engine/provider-report';
import type { Balance, WorkflowParameters } from '../../../shared/service/model';
import type { DoneLedger } from '../journal/done-ledger';
import type { Journal } from '../journal/journal';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { ExifToolCommand } from '../images/capture';
import type { ResultMetadataWriter } from '../images/result-metadata';
import type { AdoptedExecution } from './adopt';
import type { ExportRequest, NotExportable } from './export-again';
import type { BalanceCheckOptions } from './balance-check';
import type { ProgressListener } from './events';
import type { EngineStats } from './runner-core';
import type { SubmitHooks } from './submit-hooks';
import type { PlanOptions } from './planner';

// What the engine offers (engine.ts builds it) and what it is built from.

export interface EngineOptions {
  journal: Journal;
  client: ServiceClient;
  logger?: Logger;
  /** Executions in flight at once. */
  concurrency?: number;
  encodeConcurrency?: number;
  downloadConcurrency?: number;
  /** Size cap of the result cache in the state folder (engine/result-cache.ts; setting resultCacheMb; default 2 GB). */
  resultCacheBytes?: number;
  /** Global cap on service requests per second. */
  requestsPerSecond?: number;
  maxSubmitAttempts?: number;
  /** Decompression-bomb guard for inputs (default 100 MP). */
  maxInputPixels?: number;
  eventIntervalMs?: number;
  now?: () => Date;
  /** The studio ledger's part in each submission (several machines on one hot folder). */
  submitHooks?: SubmitHooks;
  /** What is already done (default: the journal's ledger). */
  doneLedger?: DoneLedger;
  /** Writes results' metadata (default: ExifTool, its config beside the journal); ended with the engine. */
  resultMetadata?: ResultMetadataWriter;
  /** Judging lost submissions by the balance (balance-evidence.ts); false turns it off. Never used in studio mode. */
  balanceEvidence?: false | BalanceCheckOptions;
}



export interface Engine {
  /** `onProgress` follows the photos read; `signal` cancels it between two files (AppError 'cancelled'). */
  estimate(spec: BatchSpecInput, options?: PlanOptions): Promise<BatchEstimate>;
  /**
   * Refused with AppError 'insufficient_credits' / 'budget_exceeded' unless the whole batch fits. Once `signal`
   * aborts (a caller that stopped waiting: a hot folder closing), nothing is journalled and it rejects with its reason.
   */
  createBatch(spec: BatchSpecInput, options?: { signal?: AbortSignal }): Promise<BatchSummary>;
  pause(batchId: string): BatchSummary;
  resume(batchId: string): BatchSummary;
  /** Cancels what was not sent; what was sent is paid, finishes at the service and is still downloaded and saved. */
  cancel(batchId: string): BatchSummary;
  retryFailed(batchId: string): BatchSummary;
  /**
   * After a try-first batch: the same spec for the whole selection, as a new batch. The done ledger leaves the tried
   * photos out (no second upload, no second charge); the cost check is the usual one.
   */
  continueTrial(batchId: string): Promise<BatchSummary>;
  cancelItem(itemId: string): ItemView;
  /** The engine's one ExifTool process (RAW previews for the screen share it with uploads and result metadata). */
  exiftool: ExifToolCommand;
  /** Follows executions another instance submitted (studio takeover): polled and saved, never submitted again. */
  adopt(spec: BatchSpecInput, executions: readonly AdoptedExecution[]): Promise<BatchSummary>;
  /** "Export again without paying": results already paid for made into new deliverables (engine/export-again.ts). */
  exportAgain(request: ExportRequest): Promise<{ batches: BatchSummary[]; notExportable: NotExportable[] }>;
  /** Explicit resubmission of an `unknown` (or failed) item: may charge twice, the caller has asked the user. */
  resubmitItem(itemId: string): ItemView;
  /** Executions charged without a result (`charged-no-result`) of one batch or of all, as rows and as a CSV. */
  providerReport(batchId?: string | null): { rows: ProviderReportRow[]; csv: string; fileName: string };
  reorder(batchId: string, itemIds: readonly string[], beforeItemId?: string | null): { moved: number };
  /** Moves a batch before (front) or after (back) every other open batch in the submit queue (journal/batch-order.ts). */
  moveBatch(batchId: string, to: 'front' | 'back'): BatchSummary;
  /** Sets a batch's queue priority (higher submits first). */
  setPriority(batchId: string, priority: number): BatchSummary;
  setVerdict(itemId: string, verdict: Verdict): ItemView;
  rerun(itemIds: readonly string[], parameters: WorkflowParameters): Promise<BatchSummary>;
  listBatches(): BatchSummary[];
  getBatch(batchId: string): BatchSummary;
  listItems(query: { batchId: string; offset?: number; limit?: number; states?: readonly ItemState[] }): { total: number; items: ItemView[] };
  getItem(itemId: string): ItemView;
  /** Recovers after a crash (re-polls known executions, re-downloads unsaved results) and starts scheduling. */
  start(): Promise<void>;
  /** Recovery alone (start() then only begins scheduling): nothing is submitted before start(). */
  recover(): Promise<void>;
  /**
   * graceful: wait for submissions, encodes and saves in progress (nothing left `submitting`). Otherwise downloads and
   * saves in progress are cut (temp files removed, items left `downloading` for the next start) within a bounded moment.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
  onProgress(listener: ProgressListener): () => void;
  readonly offline: boolean;
  /** Whether the service answers; while it does not, when it stopped and when the next health probe goes out. */
  reachability(): { reachable: boolean } & Partial<ServiceUnreachable>;
  /** Applies a new concurrency (Settings) to the running engine, no restart needed. */
  setConcurrency(concurrency: number): void;
  /** Counters for benchmarks and diagnostics. */
  stats(): EngineStats;
  /** True while anything is encoding, in flight or downloading. */
  busy(): boolean;
  /** Reads the balance through the engine (credit-guard.ts): its budget checks and balance evidence see every read. */
  readBalance(): Promise<Balance>;
}
