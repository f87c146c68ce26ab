import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import {
  PAUSED_BY_USER, SERVICE_UNREACHABLE, type BatchEstimate, type BatchProgressEvent, type BatchSpec, type BatchSpecInput, type BatchSummary,
  type ItemState, type ItemView, type ServiceUnreachable, type Verdict,
} from '../../../shared/engine/model';
import { canApply, inGroup, statesOf } from '../../../shared/engine/item-states';
import { AppError, isAppError } from '../../../shared/errors';
import type { WorkflowDetail, WorkflowParameters } from '../../../shared/service/model';
import { journalDoneLedger, type DoneLedger } from '../journal/done-ledger';
import type { Journal } from '../journal/journal';
import type { BatchRecord } from '../journal/types';
import { silentLogger, type Logger } from '../log';
import type { ServiceClient } from '../service/types';
import { createCoalescer, type ProgressListener } from './events';
import { isOutagePause } from './outage-pause';
import { checkOutputFolder, specWithOutputFolder } from './output-folder';
import { buildEstimate, planBatch, refuseUnrunnable, trialOf } from './planner';
import { toBatchSummary, toItemView } from './projection';
import { Runner, type EngineStats } from './runner';
import type { SubmitHooks } from './submit-hooks';
import type { BalanceCheckOptions } from './balance-check';
import { adoptExecutions, type AdoptedExecution } from './adopt';
import { providerReportCsv, providerReportFileName, type ProviderReportRow } from '../../../shared/engine/provider-report';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../images/result-metadata';
import type { ExifToolCommand } from '../images/capture';
import { APP_NAME, APP_VERSION } from '../../../shared/app-info';
export type { AdoptedExecution } from './adopt';

export interface EngineOptions {
  journal: Journal;
  client: ServiceClient;
  logger?: Logger;
  /** Executions in flight at once. */
  concurrency?: number;
  encodeConcurrency?: number;
  downloadConcurrency?: number;
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
  estimate(spec: BatchSpecInput): Promise<BatchEstimate>;
  /** Refused with AppError 'insufficient_credits' / 'budget_exceeded' unless the whole batch fits. */
  createBatch(spec: BatchSpecInput): Promise<BatchSummary>;
  pause(batchId: string): BatchSummary;
  resume(batchId: string): BatchSummary;
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
  /** Explicit resubmission of an `unknown` (or failed) item: may charge twice, the caller has asked the user. */
  resubmitItem(itemId: string): ItemView;
  /** Executions charged without a result (`charged-no-result`) of one batch or of all, as rows and as a CSV. */
  providerReport(batchId?: string | null): { rows: ProviderReportRow[]; csv: string; fileName: string };
  reorder(batchId: string, itemIds: readonly string[], beforeItemId?: string | null): { moved: number };
  setVerdict(itemId: string, verdict: Verdict): ItemView;
  rerun(itemIds: readonly string[], parameters: WorkflowParameters): Promise<BatchSummary>;
  listBatches(): BatchSummary[];
  getBatch(batchId: string): BatchSummary;
  listItems(query: { batchId: string; offset?: number; limit?: number; states?: readonly ItemState[] }): { total: number; items: ItemView[] };
  getItem(itemId: string): ItemView;
  /** Recovers after a crash (re-polls known executions, re-downloads unsaved results) and starts scheduling. */
  start(): Promise<void>;
  /** graceful: wait for submissions, encodes and saves in progress (nothing left `submitting`). */
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
}

export function createEngine(options: EngineOptions): Engine {
  const { journal, client } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  let concurrency = Math.max(1, options.concurrency ?? 4);
  let offline = false;

  const summary = (batch: BatchRecord): BatchSummary => toBatchSummary(journal, batch, { itemMs: runner.itemMsOf(batch.id), concurrency });

  const unreachable = (): ServiceUnreachable | null =>
    runner.gate.offline ? { since: runner.gate.offlineSince ?? Date.now(), nextTryAt: runner.gate.nextProbeAt } : null;

  const coalescer = createCoalescer((batchIds, itemIds): BatchProgressEvent => ({
    batches: batchIds.map((id) => journal.getBatch(id)).filter((b): b is BatchRecord => b !== null).map(summary),
    items: itemIds.map((id) => journal.getItem(id)).filter((i) => i !== null).map(toItemView),
    engine: { offline, unreachable: unreachable() },
  }), options.eventIntervalMs ?? 100);

  const doneLedger = options.doneLedger ?? journalDoneLedger(journal);
  const resultMetadata = options.resultMetadata ?? createResultMetadataWriter({ configDir: dirname(journal.path), creatorTool: `${APP_NAME} ${APP_VERSION}` });
  const runner: Runner = new Runner({
    journal, client, logger, concurrency, now,
    encodeConcurrency: options.encodeConcurrency,
    downloadConcurrency: options.downloadConcurrency,
    requestsPerSecond: options.requestsPerSecond,
    maxSubmitAttempts: options.maxSubmitAttempts,
    maxInputPixels: options.maxInputPixels,
    submitHooks: options.submitHooks,
    balanceEvidence: options.balanceEvidence,
    doneLedger,
    resultMetadata,
    onItem: (item) => coalescer.markItem(item.id, item.batchId),
    onBatch: (id) => coalescer.markBatch(id),
    onOffline: (value) => {
      offline = value;
      for (const b of journal.listBatches()) if (b.state === 'running' || isOutagePause(b.pausedReason)) coalescer.markBatch(b.id);
    },
  });

  const requireItem = (itemId: string) => {
    const item = journal.getItem(itemId);
    if (!item) throw new AppError('not_found', `no item ${itemId}`);
    return item;
  };

  const itemView = (itemId: string) => toItemView(requireItem(itemId));

  async function plan(input: BatchSpecInput) {
    const spec = await specWithOutputFolder(input);
    const workflow: WorkflowDetail = await client.getWorkflow(spec.workflowId);
    const full = await planBatch(spec, workflow, doneLedger);
    const planned = spec.tryFirst ? trialOf(full, spec.tryFirst) : full;
    let balance: number | null = null;
    try {
      const ticket = runner.evidence.ticket();
      balance = (await client.getBalance()).apiCredits;
      runner.setBalance(balance);
      runner.evidence.observe(balance, ticket);
    } catch (error) {
      if (isAppError(error) && error.code === 'unauthorized') throw error;
      logger.warn('balance unavailable for estimate', { error: error instanceof Error ? error.message : String(error) });
    }
    return { spec, workflow, planned, estimate: await buildEstimate(spec, workflow, planned, balance, now(), resultMetadata.capture) };
  }

  async function createBatch(input: BatchSpecInput): Promise<BatchSummary> {
    const { spec, workflow, planned, estimate } = await plan(input);
    refuseUnrunnable(spec, estimate);
    await checkOutputFolder(spec.output.outputFolder);
    const at = now().toISOString();
    // A try-first batch remembers how many photos "Continue" would run.
    const stored: BatchSpec = planned.trial ? { ...spec, trialRest: planned.trial.rest } : spec;
    const batch: BatchRecord = {
      id: randomUUID(), spec: stored, workflow, creditCost: workflow.creditCost, state: 'running', pausedReason: null, createdAt: at, updatedAt: at,
      creditsSpent: 0, budget: spec.budget, outputFolder: spec.output.outputFolder,
    };
    journal.createBatch(batch, planned.items);
    logger.info('batch created', { batchId: batch.id, items: planned.workCount, skipped: planned.items.length - planned.workCount });
    coalescer.markBatch(batch.id);
    runner.checkBatchDone(batch.id);
    runner.kick();
    return summary(runner.refreshBatch(batch.id));
  }

  async function adopt(input: BatchSpecInput, executions: readonly AdoptedExecution[]): Promise<BatchSummary> {
    const { spec, workflow, planned } = await plan(input);
    await checkOutputFolder(spec.output.outputFolder);
    const batchId = adoptExecutions({ journal, runner, now, markItem: coalescer.markItem }, spec, workflow, planned.items, executions);
    logger.info('following executions of another instance', { batchId, count: executions.length });
    coalescer.markBatch(batchId);
    runner.checkBatchDone(batchId);
    return summary(runner.refreshBatch(batchId));
  }

  const requireBatch = (batchId: string) => runner.batch(batchId);

  async function continueTrial(batchId: string): Promise<BatchSummary> {
    const { spec } = requireBatch(batchId);
    if (!spec.tryFirst) throw new AppError('conflict', 'this batch was not a try-first batch: there is nothing to continue');
    return createBatch({ ...spec, tryFirst: null, trialRest: null, rerun: false });
  }

  return {
    estimate: async (spec) => (await plan(spec)).estimate,
    createBatch,
    continueTrial,
    adopt,
    exiftool: resultMetadata.command,
    pause: (batchId) => {
      const batch = requireBatch(batchId);
      // A batch paused by an outage becomes the user's pause: it is then not resumed automatically.
      if (batch.state === 'running' || isOutagePause(batch.pausedReason)) runner.setBatchState(batchId, 'paused', PAUSED_BY_USER);
      return summary(runner.batch(batchId));
    },
    resume: (batchId) => {
      const batch = requireBatch(batchId);
      if (batch.state === 'cancelled') {
        // A cancelled batch resumed: its items cancelled before they were sent run after all (nothing was spent on
        // them); anything the service already had was finished and kept.
        const restored = journal.transitionAll(batchId, 'restore', { reason: null, completedAt: null });
        for (const id of restored) coalescer.markItem(id, batchId);
        if (restored.length === 0) return summary(batch);
      } else if (batch.state !== 'paused') {
        return summary(batch);
      }
      // While the service is unreachable a resume waits for it (resumed automatically) and asks for a probe now.
      if (runner.gate.offline) {
        runner.setBatchState(batchId, 'paused', SERVICE_UNREACHABLE);
        runner.gate.probeNow();
      } else {
        runner.setBatchState(batchId, 'running', null);
      }
      return summary(runner.batch(batchId));
    },
    cancel: (batchId) => {
      const batch = requireBatch(batchId);
      if (batch.state === 'completed' || batch.state === 'cancelled') return summary(batch);
      runner.setBatchState(batchId, 'cancelled', null);
      runner.dropReady(batchId);
      for (const id of journal.transitionAll(batchId, 'cancel', { reason: 'cancelled by you', completedAt: now().toISOString() })) {
        coalescer.markItem(id, batchId);
      }
      return summary(runner.batch(batchId));
    },
    retryFailed: (batchId) => {
      requireBatch(batchId);
      const failed = journal.itemsInStates(batchId, statesOf('retryable'));
      for (const item of failed) {
        // A result that was produced (and paid) but not saved is fetched again, not re-executed.
        if (item.executionId && item.resultUrls.length > 0 && item.creditsCharged > 0) {
          journal.updateItem(item.id, { event: 'redownload', reason: null });
          runner.enqueueDownload(item.id);
        } else {
          journal.updateItem(item.id, { event: 'retry', reason: null, progress: 0, attempts: 0, executionId: null, resultUrls: [], resultLabels: [] });
        }
        coalescer.markItem(item.id, batchId);
      }
      if (failed.length > 0) runner.setBatchState(batchId, 'running', null);
      return summary(runner.batch(batchId));
    },
    cancelItem: (itemId) => {
      const item = requireItem(itemId);
      if (canApply(item.state, 'cancel')) {
        runner.dropReady(null, itemId);
        journal.updateItem(itemId, { event: 'cancel', reason: 'cancelled by you', completedAt: now().toISOString() });
        coalescer.markItem(itemId, item.batchId);
        runner.checkBatchDone(item.batchId);
      } else if (inGroup('sent', item.state)) {
        throw new AppError('conflict', 'already sent to the service, which cannot stop it; it has been paid for and its result will be saved');
      }
      return itemView(itemId);
    },
    resubmitItem: (itemId) => {
      const item = requireItem(itemId);
      if (!canApply(item.state, 'resubmit')) throw new AppError('conflict', `only unknown or failed items can be resubmitted (this one is ${item.state})`);
      journal.updateItem(itemId, { event: 'resubmit', reason: null, progress: 0, attempts: 0, executionId: null, resultUrls: [], resultLabels: [], outputs: [] });
      coalescer.markItem(itemId, item.batchId);
      const batch = runner.batch(item.batchId);
      if (batch.state !== 'running') runner.setBatchState(item.batchId, 'running', null);
      runner.kick();
      return itemView(itemId);
    },
    providerReport: (batchId = null) => {
      if (batchId) requireBatch(batchId);
      const rows = journal.itemsInStates(batchId, ['charged-no-result']).map((item): ProviderReportRow => {
        const batch = runner.batch(item.batchId);
        return {
          executionId: item.executionId ?? '', submittedAt: item.submittedAt, credits: item.creditsCharged, workflowId: batch.workflow.id,
          batchId: item.batchId, photo: item.displayName, reason: item.reason,
        };
      });
      return { rows, csv: providerReportCsv(rows), fileName: providerReportFileName(now()) };
    },
    reorder: (batchId, itemIds, beforeItemId = null) => {
      requireBatch(batchId);
      const all: string[] = [];
      const pending = new Set<string>();
      for (let offset = 0; ; offset += 5000) {
        const page = journal.listItems({ batchId, offset, limit: 5000 });
        for (const item of page.items) { all.push(item.id); if (item.state === 'pending') pending.add(item.id); }
        if (page.items.length < 5000) break;
      }
      const moving = itemIds.filter((id) => pending.has(id) && id !== beforeItemId);
      const movingSet = new Set(moving);
      const rest = all.filter((id) => !movingSet.has(id));
      let at = beforeItemId ? rest.indexOf(beforeItemId) : rest.findIndex((id) => pending.has(id));
      if (at < 0) at = rest.length;
      const order = [...rest.slice(0, at), ...moving, ...rest.slice(at)];
      journal.setPositions(batchId, order);
      for (const id of moving) coalescer.markItem(id, batchId);
      return { moved: moving.length };
    },
    setVerdict: (itemId, verdict) => {
      const item = requireItem(itemId);
      journal.updateItem(itemId, { verdict });
      coalescer.markItem(itemId, item.batchId);
      return itemView(itemId);
    },
    rerun: async (itemIds, parameters) => {
      const items = itemIds.map(requireItem);
      const origin = runner.batch(items[0]!.batchId);
      if (items.some((i) => runner.batch(i.batchId).workflow.id !== origin.workflow.id)) {
        throw new AppError('validation', 'items to re-run must come from batches of the same workflow');
      }
      return createBatch({
        // Asked for explicitly: runs (and pays) even for a photo the done ledger knows with these parameters.
        ...origin.spec, parameters, budget: null, rerun: true,
        inputs: { paths: [], recursive: false, mappings: items.map((i) => i.sources) },
      });
    },
    listBatches: () => journal.listBatches().map((b) => summary(runner.batch(b.id))),
    getBatch: (batchId) => summary(requireBatch(batchId)),
    listItems: (query) => {
      requireBatch(query.batchId);
      const page = journal.listItems(query);
      return { total: page.total, items: page.items.map(toItemView) };
    },
    getItem: itemView,
    start: () => runner.start(),
    stop: async ({ graceful = true } = {}) => {
      await runner.stop(graceful);
      await resultMetadata.end().catch((error: unknown) => logger.warn('ExifTool did not end cleanly', { error: String(error) }));
      coalescer.flush();
      coalescer.close();
    },
    onProgress: (listener) => coalescer.on(listener),
    get offline() { return offline; },
    reachability: () => ({ reachable: !runner.gate.offline, ...unreachable() }),
    setConcurrency: (value) => {
      concurrency = Math.max(1, Math.floor(value));
      runner.setConcurrency(concurrency);
    },
    stats: () => ({ ...runner.stats, phases: structuredClone(runner.stats.phases) }),
    busy: () => runner.isBusy(),
  };
}
