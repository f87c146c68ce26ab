import { availableParallelism } from 'node:os';
import type { BatchPause } from '../../../shared/engine/model';
import { inGroup } from '../../../shared/engine/item-states';
import { AppError } from '../../../shared/errors';
import type { Journal } from '../journal/journal';
import type { ItemWriteOptions } from '../journal/journal-api';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { CreditGuard } from './credit-guard';
import { BalanceCheck } from './balance-check';
import { afterEvidence } from './evidence-verdict';
import { DownloadPool } from './download-results';
import { EncodeAhead } from './encode-ahead';
import { ExecutionFollower } from './follow-execution';
import { RequestGate } from './limiter';
import { pauseForOutage, resumeAfterOutage } from './outage-pause';
import type { EngineStats, ReadyPayload, RunnerCore, RunnerOptions, SendTicket } from './runner-core';
import { NamePlanCache } from './name-plan-cache';
import type { SaverDeps } from './saver';
import { recoverOpenBatches } from './runner-recovery';
import { settleTaskFailure } from './task-failure';
import { submitItem } from './submit-item';
import { addPhase, emptyPhaseTotals } from './phase-times';
import { nowMs } from './clock';
import { UnsentSubmissions } from './unsent-submissions';
import { ClaimFollowers } from './claim-followers';
import { queueRanks, rankOf, readyInQueueOrder } from './runner-order';
import { BatchOriginals } from './batch-originals';
import { traceStart } from '../start-trace';
import type { StartOrder } from './start-order';
export type { EngineStats, RunnerOptions } from './runner-core';

/** A non-graceful stop's wait for cut downloads and saves to tidy up (an aborted transfer: ms; a save mid-convert: 1–2 s). */
const ABANDON_WAIT_MS = 2_000;

// The scheduler. Work moves pending → encoding (prefetched, bounded: encode-ahead.ts) → submitting (a slot of
// `concurrency`: submit-item.ts) → submitted/running (polled on a timer: follow-execution.ts) → downloading (its own
// small pool: download-results.ts) → saved. Money checks before each submission are credit-guard.ts. Every
// transition is journalled before the action it enables, which is what makes crash recovery in start() safe. This
// file owns what those parts share (batch cache, ready payloads, background tasks) and the pump that drives them.

export class Runner implements RunnerCore {
  readonly gate: RequestGate;
  readonly stats: EngineStats = { uploadBytes: 0, originalBytes: 0, encoded: 0, submits: 0, statusRequests: 0, downloads: 0, chainUrls: 0, chainUploads: 0, phases: emptyPhaseTotals() };
  readonly credits: CreditGuard;
  readonly evidence: BalanceCheck;
  readonly ready = new Map<string, ReadyPayload>();
  private readonly batches = new Map<string, BatchRecord>();
  private readonly ops = new Set<Promise<unknown>>();
  /** Submissions not sent yet (beforeSend): a non-graceful stop waits for them to put their items back. */
  private readonly unsent = new UnsentSubmissions();
  private readonly originals: BatchOriginals;
  private readonly encoder: EncodeAhead;
  private readonly follower: ExecutionFollower;
  private readonly downloads: DownloadPool;
  private readonly followers: ClaimFollowers;
  private followerTimer: NodeJS.Timeout | null = null;
  startOrder: StartOrder = { open: () => true, stop: () => {} };
  private pumpScheduled = false;
  private recovered = false;
  private started = false;
  private stopping = false;
  private readonly saverDeps: SaverDeps;

  constructor(readonly o: RunnerOptions) {
    this.originals = new BatchOriginals(o.journal);
    this.gate = new RequestGate({
      requestsPerSecond: o.requestsPerSecond ?? 40,
      probe: async () => { await this.credits.read({ timeoutMs: 5_000 }); },
      onOfflineChange: (offline) => {
        o.logger.warn(offline ? 'service unreachable: pausing requests' : 'service reachable again');
        if (offline) pauseForOutage(this);
        o.onOffline(offline);
        if (!offline) resumeAfterOutage(this);
      },
      onProbeScheduled: () => o.onOffline(true),
    });
    this.evidence = new BalanceCheck({
      journal: o.journal, client: o.client, gate: this.gate, logger: o.logger, submits: () => this.stats.submits,
      onSettled: (itemIds, resent) => afterEvidence(this, itemIds, resent), kick: () => this.kick(),
    }, o.balanceEvidence !== false, o.balanceEvidence || {});
    this.credits = new CreditGuard({ gate: this.gate, client: o.client, balanceRefreshMs: o.balanceRefreshMs, kick: () => this.kick(), evidence: this.evidence });
    this.saverDeps = {
      journal: o.journal, client: o.client, gate: this.gate, now: o.now,
      originalsOf: (batchId) => this.originals.of(batchId, this.batch(batchId).outputFolder), onChange: (item) => o.onItem(item), namePlans: new NamePlanCache(),
      onPhase: (phase, ms) => addPhase(this.stats.phases, phase, ms),
      metadata: o.resultMetadata,
    };
    // At least two encodes overlap: each is a chain of small async steps, and one at a time cannot keep 8 slots fed.
    this.encoder = new EncodeAhead(this, o.encodeConcurrency ?? Math.max(2, Math.min(4, availableParallelism())));
    this.downloads = new DownloadPool(this, this.saverDeps, o.downloadConcurrency ?? Math.max(2, Math.min(8, Math.ceil(o.concurrency / 2))));
    this.follower = new ExecutionFollower(this, (itemId) => this.downloads.push(itemId));
    this.followers = new ClaimFollowers(this, (itemId) => this.downloads.push(itemId));
  }

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

  setBatchState(id: string, state: BatchRecord['state'], pause: BatchPause | null): void {
    // Resuming (typically after a top-up) must not trust the balance that caused the pause.
    if (state === 'running') this.credits.distrustBalance();
    this.o.journal.updateBatch(id, { state, pausedReason: pause?.reason ?? null, pauseCode: pause?.code ?? null });
    this.refreshBatch(id);
    this.o.onBatch(id);
    if (state === 'running') { this.followers.resumed(); this.kick(); }
  }

  /** What the runner keeps per batch and per item, for the bounded-memory checks (test/main/engine). */
  heldSizes(): Record<string, number> {
    return { batches: this.batches.size, ready: this.ready.size, ...this.originals.sizes(), flights: this.follower.size, downloads: this.downloads.size, encoding: this.encoder.size };
  }

  itemMsOf(batchId: string): number | null {
    return this.downloads.itemMsOf(batchId);
  }

  setBalance(balance: number): void {
    this.credits.setBalance(balance);
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------------
  /** Crash recovery, then scheduling. Idempotent. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.recover();
    this.started = true;
    this.stopping = false;
    void this.credits.refresh();
    this.kick();
  }

  /**
   * Crash recovery alone: known executions are polled again and unsaved results queued, but nothing is submitted
   * (nor downloaded) until start(). A host still starting (hot folders, studio ledger) can thus stop in between
   * without any paid work sent. Idempotent until stop().
   */
  async recover(): Promise<void> {
    if (this.recovered) return;
    this.gate.reopen();
    this.startOrder = await recoverOpenBatches(this, { follower: this.follower, downloads: this.downloads, saverDeps: this.saverDeps });
    this.recovered = true;
  }

  /**
   * graceful: waits for every task (submissions, encodes, downloads and saves finish). Otherwise downloads and saves
   * in progress are abandoned — cut, their temp files removed, their items left `downloading` for the next start —
   * and the stop waits only the moment that tidying takes (bounded), so nothing of theirs runs after the journal
   * closes or the metadata writer ends. Either way no submission is sent once stopping: one still waiting for its
   * turn (a back-off, the offline latch) or for the studio ledger puts its item back, and the stop waits (bounded)
   * for that too — then puts back itself whatever still waits.
   */
  async stop(graceful: boolean): Promise<void> {
    this.stopping = true;
    if (this.followerTimer) { clearTimeout(this.followerTimer); this.followerTimer = null; }
    this.startOrder.stop();
    this.follower.cancelTimers();
    this.evidence.stop();
    if (graceful) {
      await Promise.allSettled([...this.ops]);
    } else {
      // Whatever waits for its turn (or for the service to come back) is refused at once: a submission puts its item
      // back, a download is cut like the others.
      this.gate.close();
      await Promise.all([this.downloads.abandon(ABANDON_WAIT_MS), this.unsent.settle(ABANDON_WAIT_MS)]);
      // Still waiting (a studio ledger query slower than the wait): put back here while the journal is open.
      this.unsent.abandonRest(this.o.logger);
    }
    for (const [itemId] of this.ready) this.o.journal.updateItem(itemId, { event: 'requeue' });
    this.ready.clear();
    this.gate.close();
    this.started = false;
    this.recovered = false;
  }

  isStopping(): boolean { return this.stopping; }

  /**
   * Changes how many executions may be in flight. Raising it starts more at once; lowering it lets the extra ones
   * finish (they are paid for) and starts nothing new until the count is under the new limit.
   */
  setConcurrency(concurrency: number): void {
    this.o.concurrency = Math.max(1, Math.floor(concurrency));
    this.kick();
  }

  // ---- scheduling --------------------------------------------------------------------------------------------
  kick(): void {
    if (this.pumpScheduled || !this.started || this.stopping) return;
    this.pumpScheduled = true;
    setImmediate(() => { this.pumpScheduled = false; this.pump(); });
  }

  private runningBatches(): BatchRecord[] {
    return this.o.journal.batchIdsInState('running').map((id) => this.batch(id));
  }

  private pump(): void {
    if (!this.started || this.stopping) return;
    const running = this.runningBatches();
    // 0. Items following another item's claim: take its result, send it themselves, or wait (looked at again every
    // few seconds while some wait: the balance's verdict on a lost submission moves no claim when it decides nothing).
    this.followers.check(running);
    if (this.followers.waitingCount > 0 && !this.followerTimer) {
      this.followerTimer = setTimeout(() => { this.followerTimer = null; this.kick(); }, 5_000);
      this.followerTimer.unref();
    }
    // 1. Encode ahead, bounded: only a few payloads are ever held in memory.
    this.encoder.fill(running);
    // 2. Fill execution slots in queue order (runner-order.ts), unless lost submissions are about to be judged.
    const ranks = queueRanks(running);
    for (const [itemId, payload] of this.evidence.holding() ? [] : readyInQueueOrder(this.ready, ranks)) {
      if (this.follower.size >= this.o.concurrency || (this.startOrder.open() && this.downloads.backedUp(this.o.concurrency))) break;
      const batch = this.batch(payload.batchId);
      if (batch.state !== 'running') continue;
      // A batch ahead is encoding its next photo: that one goes first (a slot waits one encode at most).
      if (this.encoder.encodingAhead(ranks, rankOf(ranks, batch.id))) break;
      const blocked = this.credits.check(batch);
      if (blocked === 'wait') continue;
      if (blocked) { this.setBatchState(batch.id, 'paused', blocked); continue; }
      this.ready.delete(itemId);
      addPhase(this.stats.phases, 'waitForSlot', nowMs() - payload.readyAt);
      traceStart('first-submit');
      submitItem(this, this.follower, itemId, payload.images, batch);
    }
    // 3. Downloads, once the first submission after a start has been answered (start-order.ts kicks then).
    if (this.startOrder.open()) this.downloads.fill();
    // 4. Lost submissions, once nothing of ours can move the balance.
    if (this.evidence.due()) this.run(() => this.evidence.check());
  }

  beforeSend(itemId: string, ticket: SendTicket, putBack: () => void, wait: Promise<boolean>): Promise<boolean> {
    return this.unsent.track(itemId, ticket, putBack, wait);
  }

  run(work: () => Promise<unknown>): void {
    const op = work().catch((error: unknown) => settleTaskFailure(this, error));
    this.ops.add(op);
    void op.finally(() => this.ops.delete(op));
  }

  update(itemId: string, patch: Parameters<Journal['updateItem']>[1], options: ItemWriteOptions = {}): ItemRecord {
    this.o.journal.updateItem(itemId, patch, options);
    const item = this.o.journal.getItem(itemId)!;
    // An item of a unit moved: whoever follows that unit may go on now (the pump looks at them).
    if (item.claimKey && this.followers.touch(item)) this.kick();
    this.o.onItem(item);
    if (inGroup('terminal', item.state)) this.checkBatchDone(item.batchId);
    return item;
  }

  checkBatchDone(batchId: string): void {
    const batch = this.batch(batchId);
    const counts = this.o.journal.countByState(batchId);
    const open = Object.entries(counts).some(([state, n]) => !inGroup('terminal', state as ItemRecord['state']) && (n ?? 0) > 0);
    if (!open && batch.state !== 'completed' && batch.state !== 'cancelled') this.setBatchState(batchId, 'completed', null);
    else this.o.onBatch(batchId);
    // Nothing of an ended batch is saved any more (a retry or an export reads it again): the engine runs for weeks.
    if (!open) this.forgetBatch(batchId);
  }

  /** Drops what the runner keeps of a batch with nothing open (its originals, its cached record). */
  private forgetBatch(batchId: string): void {
    this.originals.forget(batchId);
    this.batches.delete(batchId);
  }

  dropReady(batchId: string | null, itemId?: string): void {
    for (const [id, payload] of this.ready) {
      if ((itemId && id === itemId) || (!itemId && payload.batchId === batchId)) this.ready.delete(id);
    }
  }

  /** Polls an execution this engine did not submit (its item is already `submitted`: studio takeover). */
  follow(itemId: string): void {
    const item = this.o.journal.getItem(itemId);
    if (!item || item.state !== 'submitted') return;
    this.follower.schedule(this.follower.track(item, this.batch(item.batchId), Date.now()), 0);
  }

  enqueueDownload(itemId: string): void {
    this.downloads.enqueue(itemId);
    this.kick();
  }

  isBusy(): boolean {
    return this.follower.size > 0 || this.encoder.size > 0 || this.downloads.size > 0 || this.evidence.pending();
  }
}
