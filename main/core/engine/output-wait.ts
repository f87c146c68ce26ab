import { probeOutputFolder } from '../images/output-health';
import type { RunnerCore } from './runner-core';
import type { OutputUnwritable } from './save-errors';
import { removeLeftoverTemps } from './save-steps';

// Paid results whose output folder refused them (disk full, read-only, unplugged…). Each such item stays
// `downloading` (paid, its execution known, its bytes in the result cache when it could take them) and waits here;
// its batch is paused with code `output-unwritable` and the folder's problem as the message. The items go back to the
// download pool when the batch runs again: on Resume, or by itself when a look at the folder (every few seconds
// while anything waits) finds it writable — then such a batch is resumed. A batch the user (or money) paused keeps
// its own pause: its waiting items go back on that batch's resume. Nothing here ever submits anything.

/** How often a waiting output folder is looked at. */
export const OUTPUT_RETRY_MS = 3_000;

export class OutputWait {
  /** itemId → its batch, and the folder that refused its result */
  private readonly parked = new Map<string, { batchId: string; folder: string }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the journal was read for batches paused for their folder before this engine started. */
  private scanned = false;

  /**
   * requeue: gives an item back to the download pool. keptBytes: the bytes of an item's results still to save (from
   * the result cache; 0 when not kept), so a folder is only "writable again" with room for them.
   */
  constructor(private readonly core: RunnerCore, private readonly requeue: (itemId: string) => void,
    private readonly keptBytes: (itemId: string) => Promise<number> = async () => 0) {}

  /** A result its folder refused: the item waits, the batch pauses (unless another pause holds it already). */
  park(itemId: string, batchId: string, error: OutputUnwritable): void {
    const { core } = this;
    this.parked.set(itemId, { batchId, folder: error.problem.folder });
    core.update(itemId, { reason: `paid, not saved yet: ${error.message}` });
    const batch = core.batch(batchId);
    const ours = batch.state === 'paused' && batch.pauseCode === 'output-unwritable';
    if (batch.state === 'running' || (ours && batch.pausedReason !== error.message)) {
      core.o.logger.warn('output folder refused a paid result: batch paused', { batchId, itemId, code: error.problem.code, folder: error.problem.folder });
      core.setBatchState(batchId, 'paused', { code: 'output-unwritable', reason: error.message });
    }
    this.schedule();
  }

  /** Gives back the waiting items of batches that run again (Resume, or resumed by the look below). */
  release(): void {
    if (!this.scanned) {
      this.scanned = true;
      // Paused for its folder before a restart: looked at like the others (recovery re-queues its items itself).
      if (this.pausedForOutput().length > 0) this.schedule();
    }
    for (const [itemId, { batchId }] of this.parked) {
      if (this.core.batch(batchId).state !== 'running') continue;
      this.parked.delete(itemId);
      this.requeue(itemId);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scanned = false;
  }

  private pausedForOutput(): string[] {
    return this.core.o.journal.batchIdsInState('paused').filter((id) => this.core.batch(id).pauseCode === 'output-unwritable');
  }

  private schedule(): void {
    if (this.timer || this.core.isStopping()) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.core.isStopping()) { this.scanned = false; return; }
      this.core.run(() => this.look());
    }, OUTPUT_RETRY_MS);
    // A waiting folder never keeps a process alive by itself (the CLI exits with the batch paused).
    this.timer.unref?.();
  }

  /** Looks at each waiting folder once; a writable one gets its items back (and its batch resumed). */
  private async look(): Promise<void> {
    const { core } = this;
    const batchIds = new Set([...[...this.parked.values()].map((p) => p.batchId), ...this.pausedForOutput()]);
    let still = false;
    for (const batchId of batchIds) {
      if (core.isStopping()) return;
      const batch = core.batch(batchId);
      if (batch.state === 'paused' && batch.pauseCode !== 'output-unwritable') { still = true; continue; }
      const mine = [...this.parked.entries()].filter(([, p]) => p.batchId === batchId);
      const folders = mine.length > 0 ? [...new Set(mine.map(([, p]) => p.folder))] : [batch.outputFolder];
      // Finishing may write a result larger than the service's bytes (another format, higher quality): twice as much.
      let need = 0;
      for (const [itemId] of mine) need = Math.max(need, 2 * await this.keptBytes(itemId));
      let problem = null;
      for (const folder of folders) problem ??= await probeOutputFolder(folder, batch.outputFolder, need);
      if (core.isStopping()) return;
      if (problem) {
        still = true;
        continue;
      }
      core.o.logger.info('output folder writable again: saving the results that waited', { batchId, folders });
      // What a failed save could not remove while the disk refused writes (read-only refuses an unlink too).
      await removeLeftoverTemps();
      if (batch.state === 'paused') core.setBatchState(batchId, 'running', null);
      else for (const [itemId] of mine) { this.parked.delete(itemId); this.requeue(itemId); }
    }
    if (still) this.schedule();
    core.kick();
  }
}
