import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isAppError } from '../../../shared/errors';
import { savedEntry } from '../journal/done-ledger';
import { lostEntryOf, updateWithLedger } from './done-record';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { deliverableCount, slotOf } from '../../../shared/engine/deliverables';
import { learnDuration } from './poll-timing';
import { nowMs, pause } from './clock';
import { BACKOFF, backoffDelay } from '../service/retry';
import type { RunnerCore } from './runner-core';
import { settledWithin } from './unsent-submissions';
import { DownloadRetry, OutputUnwritable, PlacementUndecided, PlacementWithdrawn, ResultUrlGone, SaveAbandoned, SaveFailure, saveResults, type SaverDeps } from './saver';
import { GateClosed } from './limiter';
import { openResultCache } from './result-cache';
import { OutputWait } from './output-wait';
import { placementCheck } from './submit-hooks';
import { LedgerWait } from './ledger-wait';

// Downloads of completed executions, in their own small pool so that saving never holds an execution slot. Every
// item here has been paid for. A result the output folder refuses (full, read-only, gone: OutputUnwritable) is
// never failed: the item stays `downloading`, its bytes stay in the result cache, the batch pauses with code
// `output-unwritable`, and output-wait.ts saves it once the folder takes writes again (Resume, or its own look every
// few seconds). A result that cannot be saved for a reason of its own fails with a reason that says so, and "retry
// failed" brings it back here without a new charge. How each result is written safely is `saver.ts`.
//
// Each download has an AbortSignal. It fires when the engine stops without waiting (abandon): the transfer is cut at
// once, the temp file removed, and the item stays `downloading` with nothing else changed — a paid result is
// downloaded again by the next start's recovery, never submitted again, never marked failed because of the stop.
// A batch cancel does not fire it: results already paid for are still downloaded and saved (the cancel dialog's
// promise), only unsent photos are cancelled.

const MAX_ATTEMPTS = 5;

interface ActiveDownload {
  controller: AbortController;
  /** Settles once the task has tidied up (temp removed, journal written). */
  done: Promise<void>;
}

export class DownloadPool {
  private readonly active = new Map<string, ActiveDownload>();
  private readonly queue: string[] = [];
  /** Learned submit → saved time per batch, for the ETA. */
  private readonly itemMs = new Map<string, number>();
  /** Items whose output folder refused their result, until it takes writes again. */
  private readonly waiting: OutputWait;
  /** Items whose placement the studio ledger could not decide yet (ledger-wait.ts). */
  private readonly ledgerWait: LedgerWait;

  constructor(private readonly core: RunnerCore, private readonly saverDeps: SaverDeps, private readonly concurrency: number) {
    // The runner's saver deps gain the state folder's result cache (shared with recovery's placements) and, in studio
    // mode, the ledger's last word before a final name.
    saverDeps.cache ??= openResultCache(dirname(core.o.journal.path), core.o.resultCacheBytes === undefined ? {} : { maxBytes: core.o.resultCacheBytes });
    saverDeps.confirmPlacement ??= placementCheck(core);
    this.waiting = new OutputWait(core, (itemId) => this.enqueue(itemId), (itemId) => this.keptBytes(itemId));
    this.ledgerWait = new LedgerWait(core, (itemId) => this.enqueue(itemId));
  }

  /** Downloads queued or in progress. */
  get size(): number {
    return this.active.size + this.queue.length;
  }

  /**
   * More results wait to be saved than the pool saves at once plus `slots` (the executions the service may run): new
   * submissions wait until saving catches up. Without it a fast service and a slow machine (or disk) let finished
   * results queue without bound, and past the service's result lifetime they expire — paid, and never saved.
   */
  backedUp(slots: number): boolean {
    return this.size >= slots + this.concurrency;
  }

  itemMsOf(batchId: string): number | null {
    return this.itemMs.get(batchId) ?? null;
  }

  /** Queues an item whose execution just completed, or one found `downloading` at recovery. */
  push(itemId: string): void {
    this.queue.push(itemId);
  }

  /** Queues an item unless it is queued or downloading already (retry of a paid-but-unsaved result). */
  enqueue(itemId: string): void {
    if (!this.queue.includes(itemId) && !this.active.has(itemId)) this.queue.push(itemId);
  }

  /** Starts queued downloads up to the pool size (and first gives back items whose folder waited, once resumed). */
  fill(): void {
    this.waiting.release();
    while (this.active.size < this.concurrency && this.queue.length > 0) {
      this.start(this.queue.shift()!);
    }
  }

  /**
   * Non-graceful stop: cuts every download and save in progress and waits (at most `waitMs`) for them to remove
   * their temp files and journal that, so nothing writes after the journal closes or the metadata writer ends.
   */
  async abandon(waitMs: number): Promise<void> {
    this.queue.length = 0;
    this.waiting.stop();
    this.ledgerWait.stop();
    const tasks = [...this.active.values()];
    for (const download of tasks) download.controller.abort();
    await settledWithin(tasks.map((t) => t.done), waitMs);
  }

  private start(itemId: string): void {
    const item = this.core.o.journal.getItem(itemId);
    if (!item) return;
    const controller = new AbortController();
    let finished = () => {};
    const done = new Promise<void>((resolve) => { finished = resolve; });
    this.active.set(itemId, { controller, done });
    this.core.run(async () => {
      try {
        await this.download(itemId, controller.signal);
      } finally {
        this.active.delete(itemId);
        finished();
        this.core.kick();
      }
    });
  }

  private async download(itemId: string, signal: AbortSignal): Promise<void> {
    const { core } = this;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !core.isStopping() && !signal.aborted; attempt++) {
      let item = core.o.journal.getItem(itemId);
      if (!item || item.state !== 'downloading') return;
      const batch = core.batch(item.batchId);
      let refreshed = false;
      try {
        // Kept bytes need no URL: a result whose URL expired is saved from the cache without asking the service.
        if ((attempt > 1 || item.resultUrls.length === 0) && !(await this.allKept(item))) {
          item = await this.refreshResultUrls(item, signal);
          refreshed = true;
        }
        const counts = core.o.journal.countByState(batch.id);
        const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) - (counts.skipped ?? 0);
        const outcome = await saveResults(this.saverDeps, item, batch, total, signal);
        this.ledgerWait.settled(itemId);
        core.stats.downloads += 1;
        const at = core.o.now().toISOString();
        if (outcome.kind === 'saved') {
          // An export's files are extra deliverables of a unit the ledger already has as saved (by its own batch).
          const entry = item.contentHash && !batch.spec.exportOf ? savedEntry(batch.spec, {
            id: item.id, contentHash: item.contentHash, sourcePath: Object.values(item.sources)[0] ?? '', outputs: outcome.outputs, executionId: item.executionId,
          }, at) : undefined;
          // A metadata or sidecar problem never costs the result: it is saved, and the item says what is missing.
          const reason = outcome.warnings.length > 0 ? `saved, but ${outcome.warnings.join('; ')}` : null;
          await updateWithLedger(core, itemId, { event: 'save', reason, completedAt: at }, entry);
        } else core.update(itemId, { event: 'save-skipped', reason: outcome.reason, completedAt: at });
        if (item.submittedAt) this.itemMs.set(batch.id, learnDuration(this.itemMs.get(batch.id) ?? null, nowMs() - Date.parse(item.submittedAt)));
        return;
      } catch (error) {
        // Cut by a cancel or a stop: whatever failed on the way failed because of it, not because of the result.
        if (error instanceof SaveAbandoned || error instanceof GateClosed || signal.aborted) {
          // Not cut by us: the metadata writer ended under a running engine. The item waits for the next start.
          if (!signal.aborted && !core.isStopping()) core.o.logger.warn('save abandoned', { itemId, message: String(error) });
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof OutputUnwritable) {
          this.waiting.park(itemId, batch.id, error);
          return;
        }
        if (error instanceof PlacementWithdrawn) {
          await this.withdrawn(itemId, message);
          return;
        }
        if (error instanceof PlacementUndecided) {
          this.ledgerWait.park(itemId, message);
          return;
        }
        if ((error instanceof ResultGone || (error instanceof ResultUrlGone && refreshed)) && batch.spec.exportOf) {
          core.update(itemId, { event: 'save-failed', completedAt: core.o.now().toISOString(), reason: `cannot be exported again: its result is no longer kept here and the service no longer has it; nothing was charged by the export` });
          return;
        }
        if (error instanceof ResultGone) {
          await this.resultGone(itemId, message);
          return;
        }
        // Gone even at the URL the execution gives now: expired at the service, and not kept here.
        if (error instanceof ResultUrlGone && refreshed) {
          await this.resultGone(itemId, `charged, but its result expired at the service before it could be saved and was not kept (${message}), so it cannot be fetched: report it to the provider (Report to provider). Not retried automatically: sending it again charges again`);
          return;
        }
        if (error instanceof SaveFailure) {
          core.update(itemId, { event: 'save-failed', completedAt: core.o.now().toISOString(), reason: `${message} — the result was paid for: fix the folder, then "retry failed" downloads it again without a new charge` });
          return;
        }
        if (error instanceof DownloadRetry && attempt < MAX_ATTEMPTS) {
          core.o.logger.debug('download retry', { itemId, message });
          await pause(backoffDelay(BACKOFF.download, attempt - 1), signal);
          continue;
        }
        core.update(itemId, { event: 'save-failed', completedAt: core.o.now().toISOString(), reason: `result could not be downloaded: ${message}` });
        return;
      }
    }
  }

  /** Another studio instance saves this paid result: nothing more is written here, its kept bytes may go. */
  private async withdrawn(itemId: string, reason: string): Promise<void> {
    this.ledgerWait.settled(itemId);
    const item = this.core.o.journal.getItem(itemId);
    if (!item) return;
    const { cache } = this.saverDeps;
    if (cache && item.executionId) for (let n = 0; n < item.resultUrls.length; n++) await cache.markSaved(item.executionId, n);
    this.core.update(itemId, { event: 'taken-over', reason, completedAt: this.core.o.now().toISOString() });
  }

  /** Bytes of an item's results still to save that the result cache keeps. */
  private async keptBytes(itemId: string): Promise<number> {
    const { cache } = this.saverDeps;
    const item = this.core.o.journal.getItem(itemId);
    if (!cache || !item?.executionId) return 0;
    let bytes = 0;
    for (let n = firstUnsavedResult(item, this.core.batch(item.batchId)); n < item.resultUrls.length; n++) {
      const path = await cache.get(item.executionId, n);
      if (path) bytes += (await stat(path).catch(() => null))?.size ?? 0;
    }
    return bytes;
  }

  /** Whether every result still to save is kept in the result cache. */
  private async allKept(item: ItemRecord): Promise<boolean> {
    const { cache } = this.saverDeps;
    if (!cache || !item.executionId || item.resultUrls.length === 0) return false;
    for (let n = firstUnsavedResult(item, this.core.batch(item.batchId)); n < item.resultUrls.length; n++) if (!(await cache.get(item.executionId, n))) return false;
    return true;
  }

  /** Paid, and its result lost by the service before it was saved: charged-no-result, never a new execution. */
  private async resultGone(itemId: string, reason: string): Promise<void> {
    const { core } = this;
    const item = core.o.journal.getItem(itemId);
    if (!item) return;
    const at = core.o.now().toISOString();
    await updateWithLedger(core, itemId, { event: 'execution-gone', completedAt: at, reason }, lostEntryOf(item, core.batch(item.batchId), at, 'charged-no-result'));
  }

  /** Result URLs may have expired: ask the execution for current ones. */
  private async refreshResultUrls(item: ItemRecord, signal: AbortSignal): Promise<ItemRecord> {
    const { core } = this;
    if (!item.executionId) throw new DownloadRetry('no execution id');
    await core.gate.acquire(signal);
    core.stats.statusRequests += 1;
    let execution;
    try {
      execution = await core.o.client.getExecution(item.executionId, { signal });
      core.gate.succeeded();
    } catch (error) {
      if (isAppError(error) && error.code === 'network') core.gate.networkFailed();
      // The service no longer knows the execution: its results are gone with it (those not kept here).
      if (isAppError(error) && error.code === 'not_found') throw new ResultGone(item.executionId);
      throw new DownloadRetry(`could not refresh result URLs: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (execution.status !== 'completed') throw new DownloadRetry(`execution is ${execution.status}`);
    const resultLabels = execution.resultLabels ?? [];
    core.o.journal.updateItem(item.id, { resultUrls: execution.resultUrls, resultLabels });
    return { ...item, resultUrls: execution.resultUrls, resultLabels };
  }
}

/** The service no longer knows an execution whose results are not all saved nor kept. */
class ResultGone extends Error {
  constructor(executionId: string) {
    super(`charged, but the service no longer knows execution ${executionId} and its result was not kept, so it cannot be fetched: report it to the provider (Report to provider). Not retried automatically: sending it again charges again`);
  }
}

/** The first result of an item with a deliverable still to write (each result becomes one file per deliverable). */
function firstUnsavedResult(item: ItemRecord, batch: BatchRecord): number {
  return slotOf(item.outputs.length, deliverableCount(batch.spec)).result;
}
