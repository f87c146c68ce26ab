import { isAppError } from '../../../shared/errors';
import { savedEntry } from '../journal/done-ledger';
import { updateWithLedger } from './done-record';
import type { ItemRecord } from '../journal/types';
import { learnDuration } from './poll-timing';
import { nowMs } from './clock';
import { BACKOFF, backoffDelay } from '../service/retry';
import type { RunnerCore } from './runner-core';
import { settledWithin } from './unsent-submissions';
import { DownloadRetry, SaveAbandoned, SaveFailure, saveResults, type SaverDeps } from './saver';
import { GateClosed } from './limiter';

// Downloads of completed executions, in their own small pool so that saving never holds an execution slot. Every
// item here has been paid for: a result that cannot be saved (folder not writable) fails with a reason that says so,
// and "retry failed" brings it back here without a new charge. How each result is written safely is `saver.ts`.
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

  constructor(private readonly core: RunnerCore, private readonly saverDeps: SaverDeps, private readonly concurrency: number) {}

  /** Downloads queued or in progress. */
  get size(): number {
    return this.active.size + this.queue.length;
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

  /** Starts queued downloads up to the pool size. */
  fill(): void {
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
      try {
        if (attempt > 1 || item.resultUrls.length === 0) item = await this.refreshResultUrls(item, signal);
        const counts = core.o.journal.countByState(batch.id);
        const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) - (counts.skipped ?? 0);
        const outcome = await saveResults(this.saverDeps, item, batch, total, signal);
        core.stats.downloads += 1;
        const at = core.o.now().toISOString();
        if (outcome.kind === 'saved') {
          const entry = item.contentHash ? savedEntry(batch.spec, {
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
      throw new DownloadRetry(`could not refresh result URLs: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (execution.status !== 'completed') throw new DownloadRetry(`execution is ${execution.status}`);
    const resultLabels = execution.resultLabels ?? [];
    core.o.journal.updateItem(item.id, { resultUrls: execution.resultUrls, resultLabels });
    return { ...item, resultUrls: execution.resultUrls, resultLabels };
  }
}

/** A retry's wait, cut short when the download is abandoned. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); signal.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
