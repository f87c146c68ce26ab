import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { AppError, isAppError } from '../../../shared/errors';
import type { ExecuteRequest } from '../../../shared/service/model';
import { encodeForUpload, toDataUrl } from '../images/encode';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import { RequestGate, sleep } from './limiter';
import { durationSample, learnDuration, nextPollDelayMs, predictRemainingMs, type ProgressSample } from './poll-timing';
import { isFinalState } from './projection';
import { removeTempFiles } from '../images/save';
import { destinationFolder, DownloadRetry, recoverPlacement, SaveFailure, saveResults, type SaverDeps } from './saver';

// The scheduler. Work moves pending → encoding (prefetched, bounded) → submitting (a slot of `concurrency`) →
// submitted/running (polled on a timer) → downloading (its own small pool) → saved. Every transition is journalled
// before the action it enables, which is what makes crash recovery in start() safe.

export interface RunnerOptions {
  journal: Journal;
  client: ServiceClient;
  logger: Logger;
  concurrency: number;
  encodeConcurrency?: number;
  downloadConcurrency?: number;
  requestsPerSecond?: number;
  maxSubmitAttempts?: number;
  maxInputPixels?: number;
  balanceRefreshMs?: number;
  now: () => Date;
  onItem: (item: ItemRecord) => void;
  onBatch: (batchId: string) => void;
  onOffline: (offline: boolean) => void;
}

interface Flight {
  itemId: string;
  batchId: string;
  executionId: string | null;
  acceptedAt: number;
  progress: number;
  overdue: number;
  idlePolls: number;
  polls: number;
  first: ProgressSample | null;
  last: ProgressSample | null;
  lastPendingPollAt: number | null;
  timer: NodeJS.Timeout | null;
  cost: number;
}

export interface EngineStats {
  uploadBytes: number;
  originalBytes: number;
  encoded: number;
  submits: number;
  statusRequests: number;
  downloads: number;
}

const ENCODE_BYTE_BUDGET = 4 * 1024 * 1024;
const RETRYABLE = new Set(['rate_limited', 'server', 'network', 'timeout', 'unavailable', 'conflict']);
const nowMs = () => Date.now();

export class Runner {
  readonly gate: RequestGate;
  readonly stats: EngineStats = { uploadBytes: 0, originalBytes: 0, encoded: 0, submits: 0, statusRequests: 0, downloads: 0 };
  private readonly batches = new Map<string, BatchRecord>();
  private readonly flights = new Map<string, Flight>();
  private readonly encoding = new Set<string>();
  private encodingBytes = 0;
  private readonly ready = new Map<string, { batchId: string; images: Record<string, string> }>();
  private readonly downloading = new Set<string>();
  private readonly downloadQueue: string[] = [];
  private readonly ops = new Set<Promise<unknown>>();
  private readonly expectedMs = new Map<string, number>();
  private readonly itemMs = new Map<string, number>();
  private readonly submittingCost = new Map<string, number>();
  private readonly originals = new Map<string, Set<string>>();
  private balance: number | null = null;
  private balanceAt = 0;
  private balanceRefreshing = false;
  private pumpScheduled = false;
  private wakeTimer: NodeJS.Timeout | null = null;
  private started = false;
  private stopping = false;
  private readonly encodeConcurrency: number;
  private readonly downloadConcurrency: number;
  private readonly saverDeps: SaverDeps;

  constructor(private readonly o: RunnerOptions) {
    // At least two encodes overlap: each is a chain of small async steps, and one at a time cannot keep 8 slots fed.
    this.encodeConcurrency = o.encodeConcurrency ?? Math.max(2, Math.min(4, availableParallelism()));
    this.downloadConcurrency = o.downloadConcurrency ?? Math.max(2, Math.min(8, Math.ceil(o.concurrency / 2)));
    this.gate = new RequestGate({
      requestsPerSecond: o.requestsPerSecond ?? 40,
      probe: async () => { await o.client.getBalance({ timeoutMs: 5_000 }); },
      onOfflineChange: (offline) => { o.logger.warn(offline ? 'service unreachable: pausing requests' : 'service reachable again'); o.onOffline(offline); if (!offline) this.kick(); },
    });
    this.saverDeps = {
      journal: o.journal, client: o.client, gate: this.gate, now: o.now,
      originalsOf: (batchId) => this.originalsOf(batchId), onChange: (item) => o.onItem(item),
    };
  }

  // ---- batch cache ------------------------------------------------------------------------------------------
  batch(id: string): BatchRecord {
    let batch = this.batches.get(id);
    if (!batch) {
      const loaded = this.o.journal.getBatch(id);
      if (!loaded) throw new AppError('not_found', `no batch ${id}`);
      batch = loaded;
      this.batches.set(id, batch);
    }
    return batch;
  }

  refreshBatch(id: string): BatchRecord {
    this.batches.delete(id);
    return this.batch(id);
  }

  setBatchState(id: string, state: BatchRecord['state'], pausedReason: string | null): void {
    // Resuming (typically after a top-up) must not trust the balance that caused the pause.
    if (state === 'running') this.balanceAt = 0;
    this.o.journal.updateBatch(id, { state, pausedReason });
    this.refreshBatch(id);
    this.o.onBatch(id);
    if (state === 'running') this.kick();
  }

  private originalsOf(batchId: string): Set<string> {
    let set = this.originals.get(batchId);
    if (!set) {
      set = new Set();
      for (let offset = 0; ; offset += 1000) {
        const page = this.o.journal.listItems({ batchId, offset, limit: 1000 });
        for (const item of page.items) for (const source of Object.values(item.sources)) set.add(resolve(source));
        if (page.items.length < 1000) break;
      }
      this.originals.set(batchId, set);
    }
    return set;
  }

  itemMsOf(batchId: string): number | null {
    return this.itemMs.get(batchId) ?? null;
  }

  setBalance(balance: number): void {
    this.balance = balance;
    this.balanceAt = nowMs();
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------------
  /** Crash recovery, then scheduling. Idempotent. */
  async start(): Promise<void> {
    if (this.started) return;
    const { journal } = this.o;
    const at = this.o.now().toISOString();
    for (const batch of journal.listBatches()) {
      if (batch.state === 'completed') continue;
      journal.transitionAll(batch.id, ['encoding'], { state: 'pending' });
      for (const id of journal.transitionAll(batch.id, ['submitting'], {
        state: 'unknown', completedAt: at,
        reason: 'interrupted while being submitted: the service may have received and charged it. It is not resubmitted automatically; resubmit it explicitly if its result never appears.',
      })) this.o.onItem(journal.getItem(id)!);
      for (const item of journal.itemsInStates(batch.id, ['submitted', 'running'])) {
        this.track(item, batch, Date.parse(item.submittedAt ?? at));
        this.schedulePoll(this.flights.get(item.id)!, Math.random() * 200);
      }
      for (const item of journal.itemsInStates(batch.id, ['downloading'])) {
        await recoverPlacement(this.saverDeps, item, batch);
        this.downloadQueue.push(item.id);
      }
      await this.sweepTemps(batch);
    }
    this.started = true;
    this.stopping = false;
    void this.refreshBalance();
    this.kick();
  }

  /** Leftover `.batchroom-*.part` files in the folders of unfinished items. */
  private async sweepTemps(batch: BatchRecord): Promise<void> {
    const folders = new Set<string>();
    for (const item of this.o.journal.itemsInStates(batch.id, ['pending', 'submitted', 'running', 'downloading', 'failed', 'unknown'])) {
      folders.add(destinationFolder(batch, item));
    }
    for (const folder of folders) await removeTempFiles(folder);
  }

  async stop(graceful: boolean): Promise<void> {
    this.stopping = true;
    for (const flight of this.flights.values()) if (flight.timer) clearTimeout(flight.timer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (graceful) await Promise.allSettled([...this.ops]);
    for (const [itemId] of this.ready) this.o.journal.updateItem(itemId, { state: 'pending' });
    this.ready.clear();
    this.gate.close();
    this.started = false;
  }

  // ---- scheduling --------------------------------------------------------------------------------------------
  kick(): void {
    if (this.pumpScheduled || !this.started || this.stopping) return;
    this.pumpScheduled = true;
    setImmediate(() => { this.pumpScheduled = false; this.pump(); });
  }

  private wakeAt(ms: number): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => { this.wakeTimer = null; this.kick(); }, Math.max(5, ms));
  }

  private runningBatches(): BatchRecord[] {
    return this.o.journal.batchIdsInState('running').map((id) => this.batch(id));
  }

  private submittingFlights(): number {
    return this.flights.size;
  }

  private pump(): void {
    if (!this.started || this.stopping) return;
    const running = this.runningBatches();
    const prefetch = Math.min(this.o.concurrency, 8) + this.encodeConcurrency;
    // 1. Encode ahead, bounded: only a few payloads are ever held in memory.
    while (this.encoding.size < this.encodeConcurrency && this.encoding.size + this.ready.size < prefetch) {
      // Large photos decode one at a time: each holds tens of MB of pixels, and glibc keeps what several threads
      // freed, so parallel 12 MP decodes are what pushes peak memory up — small ones are cheap to overlap.
      if (this.encoding.size > 0 && this.encodingBytes >= ENCODE_BYTE_BUDGET) break;
      const next = this.nextPending(running);
      if (!next) break;
      this.startEncode(next);
    }
    // 2. Fill execution slots.
    for (const [itemId, payload] of this.ready) {
      if (this.submittingFlights() >= this.o.concurrency) break;
      const batch = this.batch(payload.batchId);
      if (batch.state !== 'running') continue;
      const blocked = this.moneyCheck(batch);
      if (blocked === 'wait') continue;
      if (blocked) { this.setBatchState(batch.id, 'paused', blocked); continue; }
      this.ready.delete(itemId);
      this.startSubmit(itemId, payload.images, batch);
    }
    // 3. Downloads.
    while (this.downloading.size < this.downloadConcurrency && this.downloadQueue.length > 0) {
      this.startDownload(this.downloadQueue.shift()!);
    }
  }

  private nextPending(running: BatchRecord[]): ItemRecord | null {
    for (const batch of running) {
      const [item] = this.o.journal.itemsInStates(batch.id, ['pending'], 1);
      if (item) return item;
    }
    return null;
  }

  /** null: go; 'wait': balance being refreshed; string: pause the batch with this reason. */
  private moneyCheck(batch: BatchRecord): string | 'wait' | null {
    const cost = batch.creditCost;
    const committed = this.submittingCost.get(batch.id) ?? 0;
    if (batch.budget !== null && batch.creditsSpent + committed + cost > batch.budget + 1e-9) {
      return `budget reached: ${fmt(batch.creditsSpent)} of ${fmt(batch.budget)} credits spent, the next item costs ${fmt(cost)}`;
    }
    if (this.balance === null) return null;
    const allCommitted = [...this.submittingCost.values()].reduce((a, b) => a + b, 0);
    if (this.balance - allCommitted >= cost) {
      if (nowMs() - this.balanceAt > (this.o.balanceRefreshMs ?? 30_000)) void this.refreshBalance();
      return null;
    }
    if (nowMs() - this.balanceAt > 2_000) {
      void this.refreshBalance().then(() => this.kick());
      return 'wait';
    }
    if (allCommitted > 0) return 'wait';
    return `insufficient credits: balance ${fmt(this.balance)}, the next item costs ${fmt(cost)}. Top up, then resume.`;
  }

  private async refreshBalance(): Promise<void> {
    if (this.balanceRefreshing) return;
    this.balanceRefreshing = true;
    try {
      await this.gate.acquire();
      const balance = await this.o.client.getBalance();
      this.gate.succeeded();
      this.setBalance(balance.apiCredits);
    } catch (error) {
      if (isAppError(error) && error.code === 'network') this.gate.networkFailed();
    } finally {
      this.balanceRefreshing = false;
    }
  }

  private track(item: ItemRecord, batch: BatchRecord, acceptedAt: number): void {
    this.flights.set(item.id, {
      itemId: item.id, batchId: batch.id, executionId: item.executionId, acceptedAt, progress: item.progress, overdue: 0,
      idlePolls: 0, polls: 0, first: null, last: null, lastPendingPollAt: null, timer: null, cost: batch.creditCost,
    });
  }

  private run<T>(work: () => Promise<T>): void {
    const op = work().catch((error: unknown) => {
      this.o.logger.error('engine task failed', { error: error instanceof Error ? error.message : String(error) });
    });
    this.ops.add(op);
    void op.finally(() => this.ops.delete(op));
  }

  private update(itemId: string, patch: Parameters<Journal['updateItem']>[1], durable = false): ItemRecord {
    this.o.journal.updateItem(itemId, patch, { durable });
    const item = this.o.journal.getItem(itemId)!;
    this.o.onItem(item);
    if (isFinalState(item.state)) this.checkBatchDone(item.batchId);
    return item;
  }

  checkBatchDone(batchId: string): void {
    const batch = this.batch(batchId);
    const counts = this.o.journal.countByState(batchId);
    const open = Object.entries(counts).some(([state, n]) => !isFinalState(state as ItemRecord['state']) && (n ?? 0) > 0);
    if (!open && batch.state !== 'completed' && batch.state !== 'cancelled') this.setBatchState(batchId, 'completed', null);
    else this.o.onBatch(batchId);
  }

  // ---- encode ------------------------------------------------------------------------------------------------
  private startEncode(item: ItemRecord): void {
    const batch = this.batch(item.batchId);
    this.encoding.add(item.id);
    this.update(item.id, { state: 'encoding' });
    let bytes = 0;
    for (const source of Object.values(item.sources)) {
      try { if (!/^https?:/i.test(source)) bytes += statSync(source).size; } catch { /* the encoder reports it */ }
    }
    this.encodingBytes += bytes;
    this.run(async () => {
      try {
        const images: Record<string, string> = {};
        for (const [field, source] of Object.entries(item.sources)) {
          if (/^https?:\/\//i.test(source)) { images[field] = source; continue; }
          const encoded = await encodeForUpload(source, {
            policy: batch.spec.encode.uploadSizePolicy, stripMetadata: batch.spec.encode.stripMetadata,
            imageSize: batch.spec.parameters.globalOverrides?.imageSize, maxInputPixels: this.o.maxInputPixels,
          });
          this.stats.uploadBytes += encoded.data.length;
          this.stats.originalBytes += encoded.originalBytes;
          images[field] = toDataUrl(encoded);
        }
        this.stats.encoded += 1;
        const current = this.o.journal.getItem(item.id);
        if (current?.state === 'encoding' && !this.stopping) this.ready.set(item.id, { batchId: item.batchId, images });
      } catch (error) {
        this.update(item.id, { state: 'failed', reason: error instanceof Error ? error.message : String(error), completedAt: this.o.now().toISOString() });
      } finally {
        this.encoding.delete(item.id);
        this.encodingBytes -= bytes;
        this.kick();
      }
    });
  }

  // ---- submit ------------------------------------------------------------------------------------------------
  private startSubmit(itemId: string, images: Record<string, string>, batch: BatchRecord): void {
    const item = this.o.journal.getItem(itemId);
    if (!item || item.state !== 'encoding') return;
    const cost = batch.creditCost;
    // Journalled (and fsynced) before the request leaves: a crash from here on makes the item `unknown`, never `pending`.
    this.update(itemId, { state: 'submitting', attempts: item.attempts + 1, reason: null }, true);
    this.track({ ...item, state: 'submitting' }, batch, nowMs());
    this.submittingCost.set(batch.id, (this.submittingCost.get(batch.id) ?? 0) + cost);
    this.run(async () => {
      const request: ExecuteRequest = { images, ...batch.spec.parameters };
      try {
        await this.gate.acquire();
        this.stats.submits += 1;
        const outcome = await this.o.client.execute(batch.workflow, request);
        this.gate.succeeded();
        if (outcome.kind === 'accepted') {
          this.o.journal.recordAccepted(itemId, outcome.executionId, cost, this.o.now().toISOString());
          this.refreshBatch(batch.id);
          if (this.balance !== null) this.balance -= cost;
          this.o.onItem(this.o.journal.getItem(itemId)!);
          const flight = this.flights.get(itemId)!;
          flight.executionId = outcome.executionId;
          flight.acceptedAt = nowMs();
          if (!this.stopping) this.schedulePoll(flight);
        } else {
          this.flights.delete(itemId);
          this.update(itemId, {
            state: 'unknown', completedAt: this.o.now().toISOString(),
            reason: `the answer to the submission was lost (${outcome.reason}): it may have been charged. Not resubmitted automatically; resubmit explicitly if needed.`,
          });
        }
      } catch (error) {
        this.flights.delete(itemId);
        this.onSubmitError(itemId, images, batch, item.attempts + 1, error);
      } finally {
        this.submittingCost.set(batch.id, Math.max(0, (this.submittingCost.get(batch.id) ?? 0) - cost));
        this.kick();
      }
    });
  }

  private onSubmitError(itemId: string, images: Record<string, string>, batch: BatchRecord, attempts: number, error: unknown): void {
    const code = isAppError(error) ? error.code : 'internal';
    const message = error instanceof Error ? error.message : String(error);
    const requeue = (reason: string | null) => {
      this.update(itemId, { state: 'encoding', reason });
      if (!this.stopping) this.ready.set(itemId, { batchId: batch.id, images });
      else this.o.journal.updateItem(itemId, { state: 'pending' });
    };
    if (code === 'insufficient_credits') {
      requeue(null);
      const detail = isAppError(error) ? error.detail : {};
      if (typeof detail.available === 'number') this.setBalance(detail.available);
      this.setBatchState(batch.id, 'paused', `insufficient credits: the service refused the next item (${message}). Top up, then resume.`);
      return;
    }
    if (code === 'unauthorized') {
      requeue(null);
      this.setBatchState(batch.id, 'paused', `the service rejected the API key (${message}). Check it in Settings, then resume.`);
      return;
    }
    if (RETRYABLE.has(code) && attempts < (this.o.maxSubmitAttempts ?? 8)) {
      if (code === 'network' || code === 'timeout') this.gate.networkFailed();
      const retryAfter = isAppError(error) && typeof error.detail.retryAfterMs === 'number' ? error.detail.retryAfterMs : null;
      this.gate.backOff(retryAfter ?? Math.min(10_000, 250 * 2 ** attempts));
      requeue(`retrying: ${message}`);
      return;
    }
    this.update(itemId, { state: 'failed', reason: message, completedAt: this.o.now().toISOString() });
  }

  // ---- poll --------------------------------------------------------------------------------------------------
  private schedulePoll(flight: Flight, delayMs?: number): void {
    if (this.stopping) return;
    const delay = delayMs ?? this.pollDelay(flight);
    flight.timer = setTimeout(() => { flight.timer = null; this.run(() => this.poll(flight)); }, Math.max(0, delay));
  }

  private pollDelay(flight: Flight): number {
    return nextPollDelayMs({
      elapsedMs: nowMs() - flight.acceptedAt, first: flight.first, last: flight.last,
      expectedMs: this.expectedMs.get(flight.batchId) ?? null, overdue: flight.overdue, idlePolls: flight.idlePolls, polls: flight.polls,
    });
  }

  private async poll(flight: Flight): Promise<void> {
    await this.gate.acquire();
    if (this.stopping || !flight.executionId) return;
    this.stats.statusRequests += 1;
    flight.polls += 1;
    let execution;
    try {
      execution = await this.o.client.getExecution(flight.executionId);
      this.gate.succeeded();
    } catch (error) {
      const code = isAppError(error) ? error.code : 'internal';
      if (code === 'not_found') {
        this.flights.delete(flight.itemId);
        this.update(flight.itemId, { state: 'failed', completedAt: this.o.now().toISOString(), reason: `the service no longer knows execution ${flight.executionId}: its result cannot be fetched` });
        return;
      }
      if (code === 'network' || code === 'timeout') this.gate.networkFailed();
      const retryAfter = isAppError(error) && typeof error.detail.retryAfterMs === 'number' ? error.detail.retryAfterMs : null;
      if (retryAfter !== null) this.gate.backOff(retryAfter);
      flight.overdue += 1;
      this.schedulePoll(flight, retryAfter ?? Math.min(10_000, 250 * 2 ** Math.min(flight.overdue, 6)));
      return;
    }
    const now = nowMs();
    const expected = this.expectedMs.get(flight.batchId) ?? null;
    if (execution.status === 'completed') {
      this.flights.delete(flight.itemId);
      const sample = durationSample(now - flight.acceptedAt, flight.lastPendingPollAt === null ? null : flight.lastPendingPollAt - flight.acceptedAt, expected);
      this.expectedMs.set(flight.batchId, learnDuration(expected, sample));
      const at = this.o.now().toISOString();
      this.o.journal.updateExecution(flight.executionId, { status: 'completed', completedAt: at });
      this.update(flight.itemId, { state: 'downloading', progress: 100, resultUrls: execution.resultUrls, completedAt: at });
      this.downloadQueue.push(flight.itemId);
      this.kick();
      return;
    }
    if (execution.status === 'failed' || execution.status === 'cancelled') {
      this.flights.delete(flight.itemId);
      const at = this.o.now().toISOString();
      const reason = `the service could not process this image: ${execution.error ?? execution.status}`;
      this.o.journal.updateExecution(flight.executionId, { status: execution.status, error: execution.error ?? null, completedAt: at });
      if (execution.status === 'failed') {
        // A failed execution is refunded by the service; the journal's spend follows.
        this.o.journal.recordRefund(flight.itemId, reason, at);
        if (this.balance !== null) this.balance += flight.cost;
        this.refreshBatch(flight.batchId);
        this.o.onItem(this.o.journal.getItem(flight.itemId)!);
        this.checkBatchDone(flight.batchId);
      } else {
        this.update(flight.itemId, { state: 'failed', reason, completedAt: at });
      }
      this.kick();
      return;
    }
    flight.lastPendingPollAt = now;
    if (execution.progress > 0) {
      const sample = { atMs: now - flight.acceptedAt, progress: execution.progress };
      flight.first ??= sample;
      flight.last = sample;
    } else {
      flight.idlePolls += 1;
    }
    const prediction = predictRemainingMs({
      elapsedMs: now - flight.acceptedAt, first: flight.first, last: flight.last, expectedMs: expected, overdue: flight.overdue, idlePolls: flight.idlePolls,
      polls: flight.polls,
    });
    if (prediction && prediction.remainingMs <= 0) flight.overdue += 1;
    const state = execution.status === 'running' ? 'running' : 'submitted';
    if (execution.progress !== flight.progress || state === 'running') {
      flight.progress = execution.progress;
      const current = this.o.journal.getItem(flight.itemId);
      if (current && (current.progress !== execution.progress || current.state !== state)) this.update(flight.itemId, { state, progress: execution.progress });
    }
    this.schedulePoll(flight, Math.max(this.pollDelay(flight), execution.retryAfterMs ?? 0));
  }

  // ---- download ----------------------------------------------------------------------------------------------
  private startDownload(itemId: string): void {
    this.downloading.add(itemId);
    this.run(async () => {
      try {
        await this.download(itemId);
      } finally {
        this.downloading.delete(itemId);
        this.kick();
      }
    });
  }

  private async download(itemId: string): Promise<void> {
    const maxAttempts = 5;
    for (let attempt = 1; attempt <= maxAttempts && !this.stopping; attempt++) {
      let item = this.o.journal.getItem(itemId);
      if (!item || item.state !== 'downloading') return;
      const batch = this.batch(item.batchId);
      try {
        if (attempt > 1 || item.resultUrls.length === 0) item = await this.refreshResultUrls(item);
        const counts = this.o.journal.countByState(batch.id);
        const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) - (counts.skipped ?? 0);
        const outcome = await saveResults(this.saverDeps, item, batch, item.position + 1, total);
        this.stats.downloads += 1;
        const at = this.o.now().toISOString();
        if (outcome.kind === 'saved') this.update(itemId, { state: 'saved', reason: null, completedAt: at });
        else this.update(itemId, { state: 'skipped', reason: outcome.reason, completedAt: at });
        if (item.submittedAt) this.itemMs.set(batch.id, learnDuration(this.itemMs.get(batch.id) ?? null, nowMs() - Date.parse(item.submittedAt)));
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof SaveFailure) {
          this.update(itemId, { state: 'failed', completedAt: this.o.now().toISOString(), reason: `${message} — the result was paid for: fix the folder, then "retry failed" downloads it again without a new charge` });
          return;
        }
        if (error instanceof DownloadRetry && attempt < maxAttempts) {
          this.o.logger.debug('download retry', { itemId, message });
          await sleep(Math.min(5_000, 300 * 2 ** attempt));
          continue;
        }
        this.update(itemId, { state: 'failed', completedAt: this.o.now().toISOString(), reason: `result could not be downloaded: ${message}` });
        return;
      }
    }
  }

  /** Result URLs may have expired: ask the execution for current ones. */
  private async refreshResultUrls(item: ItemRecord): Promise<ItemRecord> {
    if (!item.executionId) throw new DownloadRetry('no execution id');
    await this.gate.acquire();
    this.stats.statusRequests += 1;
    let execution;
    try {
      execution = await this.o.client.getExecution(item.executionId);
      this.gate.succeeded();
    } catch (error) {
      if (isAppError(error) && error.code === 'network') this.gate.networkFailed();
      throw new DownloadRetry(`could not refresh result URLs: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (execution.status !== 'completed') throw new DownloadRetry(`execution is ${execution.status}`);
    this.o.journal.updateItem(item.id, { resultUrls: execution.resultUrls });
    return { ...item, resultUrls: execution.resultUrls };
  }

  // ---- controls used by the engine API -----------------------------------------------------------------------
  dropReady(batchId: string | null, itemId?: string): void {
    for (const [id, payload] of this.ready) {
      if ((itemId && id === itemId) || (!itemId && payload.batchId === batchId)) this.ready.delete(id);
    }
  }

  enqueueDownload(itemId: string): void {
    if (!this.downloadQueue.includes(itemId) && !this.downloading.has(itemId)) this.downloadQueue.push(itemId);
    this.kick();
  }

  isBusy(): boolean {
    return this.flights.size > 0 || this.encoding.size > 0 || this.downloading.size > 0 || this.downloadQueue.length > 0;
  }
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}
