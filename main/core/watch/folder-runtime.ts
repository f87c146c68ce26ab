import { stat } from 'node:fs/promises';
import type { HotFolderActivity, HotFolderConfig, HotFolderStatus } from '../../../shared/hotfolders/model';
import type { Logger } from '../log';
import { folderUnavailableReason, describeFsError } from './availability';
import { fingerprintOf } from './baseline-store';
import { FilePipeline, type PipelineShared } from './file-pipeline';
import { startFolderWatcher, type FolderWatcher, type WatchTimings } from './folder-watcher';
import { isPollThreadFailure } from './folder-poller';
import { ignoreRulesFor, type IgnoreRules } from './ignore';
import type { BaselineStore } from './ports';
import { scanFolder } from './scan';
import { LEDGER_UNREACHABLE } from './claim-step';
import { isWatchLimitError, watchLimitReason } from './watch-limit';

/** Marker kept in the baseline store while existing files wait for review, so a restart asks again. */
export const REVIEW_MARKER = '!review-pending';
/**
 * Marker written when the user arms a folder and removed by its first complete scan: a folder armed while unreachable
 * applies the existing-files policy when first readable (even after a restart), not "all added while nobody watched".
 */
export const FRESH_MARKER = '!fresh-pending';

export interface RuntimeDeps extends PipelineShared {
  baseline: BaselineStore;
  logger: Logger;
  timings: WatchTimings;
  availabilityIntervalMs: number;
  availabilityTimeoutMs: number;
}

/**
 * `fresh`: the user armed the folder — files already there follow the existing-files policy. `resume`: it was armed
 * before (restart, back from unavailable, settings edited) — files not in the ledger arrived unwatched: processed once.
 */
export type ArmMode = 'fresh' | 'resume';

/** One hot folder while the manager holds it: its watcher, its availability checks, and its file pipeline. */
export class FolderRuntime {
  readonly status: HotFolderStatus;
  readonly pipeline: FilePipeline;
  private watcher: FolderWatcher | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  private ignored: IgnoreRules;
  private generation = 0;
  /** Why this folder is polled though it asked for native events (the system's watch limit), or null. */
  private pollingFallback: string | null = null;

  constructor(public config: HotFolderConfig, private readonly deps: RuntimeDeps) {
    this.status = {
      id: config.id, state: 'disarmed', reason: null, processed: 0, queued: 0, failed: 0,
      lastActivityAt: null, awaitingReview: 0, creditsSpent: 0, studio: deps.ledger.shared ? 'connected' : 'off',
    };
    this.ignored = ignoreRulesFor(config.path, config.outputFolder);
    this.pipeline = new FilePipeline(this, deps);
  }

  get armed(): boolean {
    return !this.closed && this.status.state !== 'disarmed';
  }

  activity(kind: HotFolderActivity['kind'], path: string, message: string): void {
    const at = new Date().toISOString();
    this.status.lastActivityAt = at;
    this.deps.onActivity({ folderId: this.config.id, kind, path, message, at });
    this.deps.onStatusChange();
  }

  setState(state: HotFolderStatus['state'], reason: string | null = null): void {
    this.status.state = state;
    this.status.reason = reason ?? (this.status.studio === 'unreachable' ? LEDGER_UNREACHABLE : this.pollingFallback);
    this.deps.onStatusChange();
  }

  isIgnored(path: string): boolean {
    return this.ignored(path);
  }

  /** Starts (or restarts) watching. Never throws: a folder that cannot be watched becomes 'unavailable'. */
  async arm(mode: ArmMode): Promise<void> {
    if (this.closed) return;
    const generation = ++this.generation;
    if (mode === 'fresh') await this.deps.baseline.add(this.config.id, [FRESH_MARKER]);
    await this.stopWatching();
    this.ignored = ignoreRulesFor(this.config.path, this.config.outputFolder);
    this.setState('scanning');
    this.startRecheck();
    const reason = await folderUnavailableReason(this.config.path, this.deps.availabilityTimeoutMs);
    if (generation !== this.generation) return;
    if (reason) return this.markUnavailable(reason);
    try {
      await this.startWatching(generation);
      if (generation !== this.generation) return;
      await this.pipeline.claims.join();
      await this.scan(mode, generation);
      // A recipe that would stop every batch (gone, changed price…) is said when the folder is armed, not at its first photo.
      const recipeProblem = await this.pipeline.recipeProblem();
      if (recipeProblem && generation === this.generation && this.status.state === 'armed' && !this.status.reason) {
        this.status.reason = recipeProblem;
        this.deps.onStatusChange();
      }
    } catch (error) {
      if (generation === this.generation) this.markUnavailable(describeFsError(error));
    }
  }

  private async scan(mode: ArmMode, generation: number): Promise<void> {
    const { baseline } = this.deps;
    let known = await baseline.load(this.config.id);
    const fresh = mode === 'fresh' || known.has(FRESH_MARKER);
    // Fresh: the stored set (and its fresh marker) stays until the scan completes and replaces it (a crash mid-scan
    // of an archive must not leave the next start taking the whole archive as new, and paying for it).
    if (fresh) known = new Set();
    this.pipeline.baseline = known;
    this.pipeline.hashes = await this.deps.hashCache.load(this.config.id);
    const reviewPending = known.has(REVIEW_MARKER);
    if (this.config.recursive) await this.watcher?.watchMissedDirs(this.ignored); // before the scan reads the tree
    const files = await scanFolder(this.config.path, this.config.recursive, this.ignored);
    if (generation !== this.generation) return;
    const policy = fresh || reviewPending ? this.config.existingFiles : null;
    const skipped: string[] = [];
    // What the watcher's walk just saw of each file stands in for a stat (and a realpath) per file: an archive of
    // 100,000 photos is looked at without touching it again. A file changed since is no longer in the walk's snapshot.
    const walked = (path: string) => this.watcher?.walked(path);
    this.pipeline.walked = walked;
    this.pipeline.walkedSync = this.watcher?.syncStats ?? false;
    try {
      await this.pipeline.considerInOrder(files, 'scan', this.deps.hashConcurrency, async (path) => {
        if (generation !== this.generation) return;
        if (policy === 'skip') {
          const info = walked(path) ?? (await stat(path).then((s) => (s.isFile() ? s : null), () => null));
          if (info) skipped.push(fingerprintOf(info));
          return;
        }
        await this.pipeline.consider(path, policy === 'dry-run' ? 'review' : 'scan');
      });
    } finally {
      this.pipeline.walked = null;
    }
    if (generation !== this.generation) return;
    if (fresh) await baseline.replace(this.config.id, skipped);
    else if (skipped.length > 0) await baseline.add(this.config.id, skipped);
    for (const fp of skipped) known.add(fp);
    this.finishScan();
  }

  /** After a scan or a review decision: awaiting review while held files remain, else armed. */
  finishScan(): void {
    const held = this.pipeline.held.size;
    this.status.awaitingReview = held;
    if (held > 0) {
      void this.deps.baseline.add(this.config.id, [REVIEW_MARKER]);
      // Worded for the card's two buttons (the folder's switch is already on: "arm it" would read as a riddle).
      this.setState('awaiting-review', `${held} photo${held === 1 ? ' was' : 's were'} already in the folder: look at the dry run, then process ${held === 1 ? 'it' : 'them'} or leave ${held === 1 ? 'it' : 'them'}`);
    } else {
      this.setState('armed');
    }
  }

  /** The user reviewed the dry run and armed the folder: process the held files. */
  async approveHeld(): Promise<void> {
    const held = [...this.pipeline.held].sort();
    this.pipeline.held.clear();
    this.pipeline.baseline.delete(REVIEW_MARKER);
    await this.deps.baseline.replace(this.config.id, [...this.pipeline.baseline]);
    await this.pipeline.considerInOrder(held, 'approved', this.deps.hashConcurrency);
    this.finishScan();
  }

  /** The user chose "skip" for held files: remember them as baseline. */
  async skipHeld(): Promise<void> {
    const fingerprints: string[] = [];
    for (const path of this.pipeline.held) {
      const info = await stat(path).catch(() => null);
      if (info?.isFile()) fingerprints.push(fingerprintOf(info));
    }
    this.pipeline.held.clear();
    this.pipeline.baseline.delete(REVIEW_MARKER);
    await this.deps.baseline.replace(this.config.id, [...this.pipeline.baseline, ...fingerprints]);
    for (const fp of fingerprints) this.pipeline.baseline.add(fp);
    this.finishScan();
  }

  async disarm(): Promise<void> {
    this.generation++;
    this.stopRecheck();
    await this.stopWatching();
    this.pipeline.dropQueued();
    this.pipeline.claims.clear();
    this.pipeline.held.clear();
    this.status.awaitingReview = 0;
    this.pollingFallback = null;
    this.setState('disarmed');
  }

  /** Polled (a share, or native watches ran out): stats stay asynchronous (local-walk.ts). */
  private get polled(): boolean {
    return this.config.polling || this.pollingFallback !== null;
  }

  private async startWatching(generation: number): Promise<void> {
    const watcher = startFolderWatcher({
      root: this.config.path,
      recursive: this.config.recursive,
      polling: this.polled,
      ignored: this.ignored,
      timings: this.deps.timings,
      onFile: (path) => {
        if (generation === this.generation) void this.pipeline.consider(path, 'event');
      },
      onError: (error) => {
        this.deps.logger.warn('watcher error', { folder: this.config.id, error: error.message });
        if (isWatchLimitError(error) && this.pollingFallback === null && generation === this.generation) void this.fallBackToPolling(error);
        else if (isPollThreadFailure(error) && generation === this.generation) { this.generation += 1; this.markUnavailable(error.message); }
        else void this.checkAvailability();
      },
      onRootGone: () => void this.checkAvailability(),
    });
    this.watcher = watcher;
    await watcher.ready;
    // Disarmed or closed while chokidar was walking the folder: this watcher must not outlive that.
    if (generation !== this.generation) {
      if (this.watcher === watcher) this.watcher = null;
      await watcher.close().catch(() => undefined);
    }
  }

  /**
   * Native watches ran out (a folder chokidar could not watch would never report its new files): the folder is
   * watched again by polling and scanned as on a restart, so a photo that arrived meanwhile is picked up once.
   */
  private async fallBackToPolling(error: Error): Promise<void> {
    this.pollingFallback = watchLimitReason(error);
    this.deps.logger.warn('native watches ran out: polling this folder instead', { folder: this.config.id, reason: this.pollingFallback });
    if (!this.closed && this.armed) await this.arm('resume');
  }

  private async stopWatching(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close().catch(() => undefined);
  }

  private markUnavailable(reason: string): void {
    void this.stopWatching();
    if (this.status.state !== 'unavailable') this.activity('unavailable', this.config.path, reason);
    this.setState('unavailable', reason);
  }

  /** Periodic re-check: notices a folder that vanished without an event, and one that came back. */
  private startRecheck(): void {
    if (this.recheckTimer) return;
    this.recheckTimer = setInterval(() => void this.checkAvailability(), this.deps.availabilityIntervalMs);
    this.recheckTimer.unref();
  }

  private stopRecheck(): void {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
  }

  private checking = false;

  async checkAvailability(): Promise<void> {
    if (this.closed || this.checking || !this.armed || this.status.state === 'scanning') return;
    this.checking = true;
    try {
      const generation = this.generation;
      const reason = await folderUnavailableReason(this.config.path, this.deps.availabilityTimeoutMs);
      if (generation !== this.generation || !this.armed) return;
      if (reason) {
        if (this.status.state !== 'unavailable' || this.status.reason !== reason) this.markUnavailable(reason);
      } else if (this.status.state === 'unavailable') {
        this.activity('recovered', this.config.path, 'the folder is available again');
        await this.arm('resume');
      }
    } finally {
      this.checking = false;
    }
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    this.generation++;
    this.stopRecheck();
    await this.stopWatching();
    // What was already under way (a photo being looked at, a batch on its way into the journal) ends first: the
    // host stops the engine and closes the journal next, and a journal write after that crashes the process.
    // Bounded (2 s): what is still under way then is left, and writes nothing (see FilePipeline.settle).
    const settled = await this.pipeline.settle();
    if (!settled.evaluations || !settled.batches) {
      this.deps.logger.warn('hot folder closed without waiting any longer', {
        folder: this.config.id,
        ...(settled.evaluations ? {} : { evaluations: 'a photo is still being read (it stops before the journal)' }),
        ...(settled.batches ? {} : { batches: 'a batch the engine had not taken yet is abandoned (its photos are picked up at the next start)' }),
      });
    }
  }
}
