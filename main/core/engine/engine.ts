import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import {
  PAUSED_BY_USER, type BatchProgressEvent, type BatchSpec, type BatchSpecInput, type BatchSummary, type ServiceUnreachable,
} from '../../../shared/engine/model';
import { canApply, inGroup } from '../../../shared/engine/item-states';
import { AppError } from '../../../shared/errors';
import type { WorkflowDetail } from '../../../shared/service/model';
import { journalDoneLedger } from '../journal/done-ledger';
import type { BatchRecord } from '../journal/types';
import { silentLogger } from '../log';
import { createCoalescer } from './events';
import { isOutagePause, outagePause } from './outage-pause';
import { checkOutputFolder, removeIfEmpty, specWithOutputFolder } from './output-folder';
import { validateWorkflowParameters } from '../../../shared/service/validate-request';
import { planBatch, refuseIfCancelled, type PlanOptions } from './planner';
import { trialOf } from './plan-trial';
import { buildEstimate, refuseUnrunnable } from './estimate';
import { toBatchSummary, toItemView } from './projection';
import { Runner } from './runner';
import { adoptExecutions, type AdoptedExecution } from './adopt';
import { createExports } from './export-again';
import { moveBatchInQueue, providerReportOf, reorderItems, retryFailedItems, setBatchPriority, type ControlContext } from './batch-controls';
import { createFileFacts } from '../images/file-facts';
import { createRawPreviewCheck } from '../images/raw-check';
import { createRecentReads } from './recent-reads';
import { serviceReadsFor } from './service-reads';
import { createResultMetadataWriter } from '../images/result-metadata';
import { APP_NAME, APP_VERSION } from '../../../shared/app-info';
import type { Engine, EngineOptions } from './engine-api';
import { journalPlanLookup } from './plan-lookup';
export type { AdoptedExecution } from './adopt';
export type { Engine, EngineOptions } from './engine-api';


export function createEngine(options: EngineOptions): Engine {
  const { journal, client } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const nowMs = () => now().getTime();
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
  const recentReads = createRecentReads(nowMs);
  const resultMetadata = options.resultMetadata ?? createResultMetadataWriter({ configDir: dirname(journal.path), creatorTool: `${APP_NAME} ${APP_VERSION}` });
  // The estimate reads every input; Start, moments later, finds them unchanged and does not read them again.
  // Kept in the state folder too (file-facts.db): the next estimate of the same photos reads none of them again.
  const fileFacts = createFileFacts({ raw: createRawPreviewCheck(resultMetadata.command), dir: dirname(journal.path) });
  const runner: Runner = new Runner({
    journal, client, logger, concurrency, now,
    encodeConcurrency: options.encodeConcurrency,
    downloadConcurrency: options.downloadConcurrency,
    resultCacheBytes: options.resultCacheBytes,
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
      for (const b of journal.listBatches()) if (b.state === 'running' || isOutagePause(b)) coalescer.markBatch(b.id);
    },
  });

  const requireItem = (itemId: string) => {
    const item = journal.getItem(itemId);
    if (!item) throw new AppError('not_found', `no item ${itemId}`);
    return item;
  };

  const itemView = (itemId: string) => toItemView(requireItem(itemId));

  const { readService, reusedBalance } = serviceReadsFor({ client, runner, logger, nowMs });

  /** `forStart`: a batch is being created, which may reuse what the estimate just read (recent-reads.ts). */
  async function plan(input: BatchSpecInput, forStart = false, planOptions: PlanOptions = {}) {
    const spec = await specWithOutputFolder(input);
    const recent = forStart ? recentReads.take(spec.workflowId, client.account) : null;
    const fresh = recent ? null : readService(spec.workflowId);
    const workflow: WorkflowDetail = fresh ? (await fresh.workflow).value : recent!.workflow;
    // A value over a field's limit would fail every item at submit: refused before anything is priced or written.
    const checked = validateWorkflowParameters(workflow, spec.parameters);
    if (!checked.ok) {
      const [first] = checked.problems;
      throw new AppError('validation', `${first!.field} ${first!.message}`, { field: first!.field });
    }
    const full = await planBatch(spec, workflow, fileFacts, doneLedger, journalPlanLookup(journal, client), planOptions);
    const planned = spec.tryFirst ? trialOf(full, spec.tryFirst) : full;
    const balance = fresh ? (await fresh.balance).value : reusedBalance(recent!.balance);
    return { spec, workflow, planned, balance, fresh, estimate: await buildEstimate(spec, workflow, planned, balance, now(), fileFacts, resultMetadata.capture) };
  }

  async function estimate(input: BatchSpecInput, planOptions: PlanOptions = {}) {
    recentReads.forget(); // a failed estimate leaves nothing behind for Start
    const planned = await plan(input, false, planOptions);
    refuseIfCancelled(planOptions.signal); // cancelled while the balance was read or the price built: no price
    if (planned.fresh) recentReads.remember(planned.spec.workflowId, await planned.fresh.workflow, await planned.fresh.balance);
    return planned.estimate;
  }

  async function createBatch(input: BatchSpecInput, options: { signal?: AbortSignal } = {}): Promise<BatchSummary> {
    const { spec, workflow, planned, estimate } = await plan(input, true);
    refuseUnrunnable(spec, estimate);
    const created = await checkOutputFolder(spec.output.outputFolder);
    // The caller gave up while this read the inputs or asked the service (a stalled share, a hung service): the batch
    // it no longer waits for is not journalled, so nothing runs that nobody tracks; its photos are found again later.
    // Nor is an output folder left behind for a batch that never started.
    if (options.signal?.aborted) await removeIfEmpty(spec.output.outputFolder, created);
    options.signal?.throwIfAborted();
    const at = now().toISOString();
    // A try-first batch remembers how many photos "Continue" would run.
    const stored: BatchSpec = planned.trial ? { ...spec, trialRest: planned.trial.rest } : spec;
    const batch: BatchRecord = {
      id: randomUUID(), spec: stored, workflow, creditCost: workflow.creditCost, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at,
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
  const controls: ControlContext = { journal, runner, markItem: (itemId, batchId) => coalescer.markItem(itemId, batchId), now };

  async function continueTrial(batchId: string): Promise<BatchSummary> {
    const { spec } = requireBatch(batchId);
    if (!spec.tryFirst) throw new AppError('conflict', 'this batch was not a try-first batch: there is nothing to continue');
    return createBatch({ ...spec, tryFirst: null, trialRest: null, rerun: false });
  }

  return {
    estimate,
    createBatch,
    continueTrial,
    adopt,
    exportAgain: async (request) => {
      const deps = { journal, now, enqueueDownload: (id: string) => runner.enqueueDownload(id), markBatch: (id: string) => coalescer.markBatch(id), checkBatchDone: (id: string) => runner.checkBatchDone(id) };
      const made = await createExports(deps, request);
      return { batches: made.batchIds.map((id) => summary(runner.refreshBatch(id))), notExportable: made.notExportable };
    },
    exiftool: resultMetadata.command,
    pause: (batchId) => {
      const batch = requireBatch(batchId);
      // A batch paused by an outage becomes the user's pause: it is then not resumed automatically.
      if (batch.state === 'running' || isOutagePause(batch)) runner.setBatchState(batchId, 'paused', { code: 'user', reason: PAUSED_BY_USER });
      return summary(runner.batch(batchId));
    },
    resume: (batchId) => {
      const batch = requireBatch(batchId);
      if (batch.state === 'cancelled') {
        // A cancelled batch resumed: its items cancelled before they were sent run after all (nothing was spent on
        // them). Its paid results need no resume: a cancel never cuts or holds their downloads.
        const restored = journal.transitionAll(batchId, 'restore', { reason: null, completedAt: null });
        for (const id of restored) coalescer.markItem(id, batchId);
        if (restored.length === 0) return summary(batch);
      } else if (batch.state !== 'paused') {
        return summary(batch);
      }
      // While the service is unreachable a resume waits for it (resumed automatically) and asks for a probe now.
      if (runner.gate.offline) {
        runner.setBatchState(batchId, 'paused', outagePause());
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
      if (retryFailedItems(controls, batchId) > 0) runner.setBatchState(batchId, 'running', null);
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
      return providerReportOf(controls, batchId);
    },
    reorder: (batchId, itemIds, beforeItemId = null) => {
      requireBatch(batchId);
      return reorderItems(controls, batchId, itemIds, beforeItemId);
    },
    moveBatch: (batchId, to) => {
      requireBatch(batchId);
      moveBatchInQueue(controls, batchId, to);
      return summary(runner.batch(batchId));
    },
    setPriority: (batchId, priority) => {
      requireBatch(batchId);
      setBatchPriority(controls, batchId, priority);
      return summary(runner.batch(batchId));
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
    recover: () => runner.recover(),
    stop: async ({ graceful = true } = {}) => {
      await runner.stop(graceful);
      await resultMetadata.end().catch((error: unknown) => logger.warn('ExifTool did not end cleanly', { error: String(error) }));
      coalescer.flush();
      coalescer.close();
      fileFacts.close();
    },
    onProgress: (listener) => coalescer.on(listener),
    get offline() { return offline; },
    reachability: () => ({ reachable: !runner.gate.offline, ...unreachable() }),
    setConcurrency: (value) => {
      concurrency = Math.max(1, Math.floor(value));
      runner.setConcurrency(concurrency);
    },
    stats: () => ({ ...runner.stats, phases: structuredClone(runner.stats.phases), held: runner.heldSizes() }),
    busy: () => runner.isBusy(),
    readBalance: () => runner.credits.read(),
  };
}
