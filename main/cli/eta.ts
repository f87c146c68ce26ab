// How long the rest of a batch will take, as the command has seen it go: elapsed time × what is left ÷ what was done,
// "done" counting the progress of items in flight too, so a batch sent all at once does not read as five times
// longer than it is. Nothing is said before the first item of this run finishes: before that the service's speed is
// unknown (the engine's own estimate waits for a saved item too, and reads 0 while paid results still download).

export interface EtaSample {
  /** Items in a final state (saved, failed, skipped…). */
  finished: number;
  total: number;
  /** 0–1 over all items, in-flight progress included (BatchSummary.progress, weighted by items). */
  progress: number;
}

export class EtaEstimator {
  private startAt: number | null = null;
  private startFinished = 0;
  private startProgress = 0;
  private last: EtaSample | null = null;
  private lastAt = 0;

  observe(sample: EtaSample, now: number): void {
    if (this.startAt === null) {
      // What was already final when following began (a resumed batch, photos skipped at once) is not this run's speed.
      this.startAt = now;
      this.startFinished = sample.finished;
      this.startProgress = sample.progress;
    }
    this.last = sample;
    this.lastAt = now;
  }

  /** Milliseconds left (0 once nothing is left), or null while no item of this run has finished yet. */
  etaMs(now = this.lastAt): number | null {
    const sample = this.last;
    if (!sample || this.startAt === null) return null;
    if (sample.finished >= sample.total) return 0;
    if (sample.finished <= this.startFinished) return null;
    const gained = sample.progress - this.startProgress;
    const elapsed = now - this.startAt;
    if (gained <= 0 || elapsed <= 0) return null;
    // Items are left, so never "0s": results may still be downloading.
    return Math.max(1000, Math.round((elapsed * (1 - sample.progress)) / gained));
  }
}
