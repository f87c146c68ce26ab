import { isAppError } from '../../../shared/errors';
import { savedEntry } from '../journal/done-ledger';
import { updateWithLedger } from './done-record';
import type { ItemRecord } from '../journal/types';
import { sleep } from './limiter';
import { learnDuration } from './poll-timing';
import { nowMs } from './clock';
import type { RunnerCore } from './runner-core';
import { DownloadRetry, SaveFailure, saveResults, type SaverDeps } from './saver';

// Downloads of completed executions, in their own small pool so that saving never holds an execution slot. Every
// item here has been paid for: a result that cannot be saved (folder not writable) fails with a reason that says so,
// and "retry failed" brings it back here without a new charge. How each result is written safely is `saver.ts`.

const MAX_ATTEMPTS = 5;

export class DownloadPool {
  private readonly active = new Set<string>();
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

  private start(itemId: string): void {
    this.active.add(itemId);
    this.core.run(async () => {
      try {
        await this.download(itemId);
      } finally {
        this.active.delete(itemId);
        this.core.kick();
      }
    });
  }

  private async download(itemId: string): Promise<void> {
    const { core } = this;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !core.isStopping(); attempt++) {
      let item = core.o.journal.getItem(itemId);
      if (!item || item.state !== 'downloading') return;
      const batch = core.batch(item.batchId);
      try {
        if (attempt > 1 || item.resultUrls.length === 0) item = await this.refreshResultUrls(item);
        const counts = core.o.journal.countByState(batch.id);
        const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) - (counts.skipped ?? 0);
        const outcome = await saveResults(this.saverDeps, item, batch, total);
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
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof SaveFailure) {
          core.update(itemId, { event: 'save-failed', completedAt: core.o.now().toISOString(), reason: `${message} — the result was paid for: fix the folder, then "retry failed" downloads it again without a new charge` });
          return;
        }
        if (error instanceof DownloadRetry && attempt < MAX_ATTEMPTS) {
          core.o.logger.debug('download retry', { itemId, message });
          await sleep(Math.min(5_000, 300 * 2 ** attempt));
          continue;
        }
        core.update(itemId, { event: 'save-failed', completedAt: core.o.now().toISOString(), reason: `result could not be downloaded: ${message}` });
        return;
      }
    }
  }

  /** Result URLs may have expired: ask the execution for current ones. */
  private async refreshResultUrls(item: ItemRecord): Promise<ItemRecord> {
    const { core } = this;
    if (!item.executionId) throw new DownloadRetry('no execution id');
    await core.gate.acquire();
    core.stats.statusRequests += 1;
    let execution;
    try {
      execution = await core.o.client.getExecution(item.executionId);
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
