import { stat } from 'node:fs/promises';
import { inGroup } from '../../../shared/engine/item-states';
import type { HotFolderActivity, HotFolderConfig, HotFolderStatus } from '../../../shared/hotfolders/model';
import { ledgerKey, parametersHash } from '../journal/ledger-key';
import { fingerprintOf } from './baseline-store';
import { pairingHalfWaits, pairWaitOver, WriteFinish } from './complete-file';
import type { WatchTimings } from './folder-watcher';
import { hashCacheKey, type HashCacheStore } from './hash-cache';
import { DONE_DIR } from './ignore';
import { moveOriginalReported } from './originals';
import { BatchSubmitter, type Candidate } from './submitter';
import { ClaimStep } from './claim-step';
import { OutcomeStep } from './outcome-step';
import { runLimited } from './limit';
import type { FileInspector, HotFolderEngine, HotFolderItemOutcome, LedgerOutcome } from './ports';
import type { Ledger } from '../studio/ledger';
import { realPathInside } from './link-guard';
import type { FolderRecipeCheck, FolderRecipes } from '../recipes/recipe-plan';
import type { WorkflowParameters } from '../../../shared/service/model';
import { unitHash } from './folder-unit';
import { walkedNow, walkedNowSync, type WalkedFile } from './walk-snapshot';

/**
 * Where a candidate file came from. `event`/`scan`: process it if it is new. `review`: existing file under the
 * dry-run policy — hold it. `approved`/`reprocess`: the user asked.
 */
export type Origin = 'event' | 'scan' | 'review' | 'approved' | 'reprocess';

export interface PipelineShared {
  engine: HotFolderEngine;
  ledger: Ledger;
  inspector: FileInspector;
  hashCache: HashCacheStore;
  /** Keys submitted and not yet final, across every folder: the in-memory half of "exactly once". */
  inFlightKeys: Map<string, string>;
  hashLimit: <R>(fn: () => Promise<R>) => Promise<R>;
  hashConcurrency: number;
  coalesceMs: number;
  maxBatchSize: number;
  timings: WatchTimings;
  /** A JPEG/PNG without its end marker is re-checked after this long, and submitted anyway after maxDeferMs. */
  deferCheckMs: number;
  maxDeferMs: number;
  /** First retry delay after the engine refused a batch (doubles up to 10 minutes). */
  retryMs: number;
  /** A RAW+JPEG half the pairing leaves out waits this long for its partner before it is considered. */
  rawPairWaitMs: number;
  /** Studio mode: how many photos an instance claims ahead of its engine (the rest is left for the others). */
  studioClaimAhead?: number;
  /** A folder's recipe, looked up and checked before each batch (main/core/recipes/recipe-plan.ts). */
  recipes?: FolderRecipes;
  /** The values a folder keeps over its recipe's parameters (`watch --recipe --text …`), by folder id. */
  recipeOverrides?: (folderId: string) => WorkflowParameters | undefined;
  onActivity(activity: HotFolderActivity): void;
  onStatusChange(): void;
}

interface FolderView {
  config: HotFolderConfig;
  status: HotFolderStatus;
  armed: boolean;
  isIgnored(path: string): boolean;
  activity(kind: HotFolderActivity['kind'], path: string, message: string): void;
}

/** A folder's way from "a file is there" to "submitted exactly once" (an item's outcome is outcome-step.ts's). */
export class FilePipeline {
  /** Existing files waiting for the user's review (dry-run policy). */
  readonly held = new Set<string>();
  /** Fingerprints of files skipped when the folder was armed ('skip' policy). */
  baseline = new Set<string>();
  /** Content hashes by (inode, size, mtime), loaded when the folder is armed. */
  hashes = new Map<string, string>();
  /** While the arm's scan runs: a file as the watcher's walk saw it (walk-snapshot.ts), instead of a stat and a realpath. */
  walked: ((path: string) => WalkedFile | undefined) | null = null;
  walkedSync = false; // a local folder (not polled): the walk's entries are checked with a synchronous lstat
  private readonly inFlight = new Map<string, Candidate>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly sessionFailed = new Set<string>();
  private readonly writeFinish: WriteFinish;
  private readonly pairWaitSince = new Map<string, number>();
  private readonly submitter: BatchSubmitter;
  /** Studio mode: the shared ledger's claim on each file (granted at once on one machine). */
  readonly claims: ClaimStep;
  private readonly outcomes: OutcomeStep;

  constructor(private readonly folder: FolderView, private readonly shared: PipelineShared) {
    const reconsider = (path: string) => void this.consider(path, 'scan');
    this.claims = new ClaimStep(folder, shared, reconsider);
    this.writeFinish = new WriteFinish({ ...shared.timings, deferCheckMs: shared.deferCheckMs, maxDeferMs: shared.maxDeferMs });
    this.submitter = new BatchSubmitter(folder, shared, (c) => {
      this.release(c);
      void this.claims.giveBack(c.key);
    }, reconsider);
    this.outcomes = new OutcomeStep({
      folder, engine: shared.engine, ledger: shared.ledger, inFlightKeys: shared.inFlightKeys, sessionFailed: this.sessionFailed,
      candidateFor: (path) => this.inFlight.get(path), release: (c) => this.release(c), claimFinished: (key) => this.claims.finished(key),
      settled: (credits) => this.submitter.settled(credits), parametersHash: () => this.parametersHash,
    });
  }

  get parametersHash(): string {
    return parametersHash(this.folder.config.parameters);
  }

  keyFor(contentHash: string): string {
    return ledgerKey(contentHash, this.folder.config.workflowId, this.parametersHash);
  }

  /** Calls for one path run one after another: an `add` and a `change` for the same file never race. */
  consider(path: string, origin: Origin): Promise<void> {
    const previous = this.chains.get(path) ?? Promise.resolve();
    const next = previous.then(() => this.evaluate(path, origin)).catch(() => undefined);
    this.chains.set(path, next);
    void next.then(() => {
      if (this.chains.get(path) === next) this.chains.delete(path);
    });
    return next;
  }

  /**
   * What is paid for a photo: its content, or — when the folder's recipe has fixed images — the photo with those
   * images (folder-unit.ts), the engine's hash of the mapping it is sent as. The ledger, claims and in-flight checks
   * all key on this.
   */
  async unitHashOf(photoHash: string): Promise<string> {
    return unitHash(photoHash, await this.submitter.fixedImages());
  }

  /** The ledger verdict for a content hash under the current settings or any earlier ones since the last reprocess. */
  async doneOutcome(contentHash: string): Promise<LedgerOutcome | null> {
    const settings = [
      { workflowId: this.folder.config.workflowId, parametersHash: this.parametersHash },
      ...this.folder.config.previousSettings,
    ];
    for (const s of settings) {
      const entry = await this.shared.ledger.get(ledgerKey(contentHash, s.workflowId, s.parametersHash));
      // A settled outcome makes the file "done": never submitted again unless the user asks (reprocess).
      if (entry && inGroup('settled', entry.outcome)) return entry.outcome;
    }
    return null;
  }

  private async evaluate(path: string, origin: Origin): Promise<void> {
    const folder = this.folder;
    if (!folder.armed || folder.isIgnored(path)) return;
    const walked = origin !== 'scan' ? undefined : this.walkedSync ? walkedNowSync(path, this.walked) : await walkedNow(path, this.walked);
    const info = walked ?? (await stat(path).then((s) => (s.isFile() ? s : null), () => null));
    if (!info) {
      this.writeFinish.forget(path);
      return;
    }
    // Another user's link in a shared folder must not make Batchroom read a file only its owner can (link-guard.ts).
    // A file the walk found, and still the same regular file now, is no link, and was reached through real folders only.
    if (!walked && !(await realPathInside(path, folder.config.path))) {
      if (origin === 'event' || origin === 'scan') folder.activity('skipped', path, 'a link to a file outside the watched folder: not followed');
      return;
    }
    const fingerprint = fingerprintOf(info);
    const current = this.inFlight.get(path);
    if (current && current.fingerprint === fingerprint) return;
    if (this.baseline.has(fingerprint)) return;
    const classification = await this.shared.inspector.classify(path);
    if (!classification.supported) {
      if (origin === 'event') folder.activity('skipped', path, classification.reason);
      return;
    }
    if (!(await this.writeFinish.finished(path, fingerprint, origin === 'event', () => void this.consider(path, origin)))) return;
    if (origin === 'event' && pairingHalfWaits(path, folder.config.rawPairs)
      && !pairWaitOver(path, this.pairWaitSince, this.shared.rawPairWaitMs, () => void this.consider(path, origin))) return;
    const cacheKey = hashCacheKey(info);
    let contentHash = origin === 'event' ? undefined : this.hashes.get(cacheKey);
    if (!contentHash) {
      contentHash = await this.shared.hashLimit(() => this.shared.inspector.contentHash(path));
      const after = await stat(path).catch(() => null);
      // Rewritten while we hashed: looked at again (polling reports no rewrite of a walked file for a recheck cycle).
      if (!after || fingerprintOf(after) !== fingerprint) return after ? this.retryLater(path, origin) : undefined;
      if (this.hashes.get(cacheKey) !== contentHash) {
        this.hashes.set(cacheKey, contentHash);
        await this.shared.hashCache.add(this.folder.config.id, cacheKey, contentHash).catch(() => undefined);
      }
    }
    // Closed while it read the file (the rest reads the journal, which the host may be closing): stop here.
    if (!folder.armed) return;
    const photoHash = contentHash;
    contentHash = await this.unitHashOf(photoHash);
    const key = this.keyFor(contentHash);
    if (this.shared.inFlightKeys.has(key)) return;
    this.shared.inFlightKeys.set(key, path);
    let queued = false;
    try {
      const done = await this.doneOutcome(contentHash);
      if (done) {
        if (origin === 'event' || origin === 'approved') folder.activity('skipped', path, `already processed (${done})`);
        if (done === 'saved' && folder.config.moveOriginals) await this.moveTo(path, DONE_DIR);
        return;
      }
      if (this.sessionFailed.has(key) && origin !== 'reprocess' && origin !== 'approved') return;
      if (await this.shared.engine.isInFlight?.(contentHash, folder.config.id)) return;
      if (origin === 'review') {
        this.held.add(path);
        return;
      }
      if (!(await this.claims.claim({ path, key, contentHash, parametersHash: this.parametersHash }))) return;
      folder.activity('detected', path, 'new photo');
      const candidate: Candidate = {
        path, key, contentHash, fingerprint, batchId: null,
        workflowId: folder.config.workflowId, parametersHash: this.parametersHash, payAgain: origin === 'reprocess',
        ...(photoHash !== contentHash ? { photoHash } : {}),
      };
      this.inFlight.set(path, candidate);
      this.submitter.enqueue(candidate);
      queued = true;
    } catch (error) {
      if (!this.claims.defer(error, { key, path })) throw error;
    } finally {
      if (!queued) this.shared.inFlightKeys.delete(key);
    }
  }

  private retryLater(path: string, origin: Origin): void {
    setTimeout(() => void (this.folder.armed && this.consider(path, origin)), this.shared.timings.stabilityThresholdMs).unref();
  }

  private release(c: Candidate): void {
    this.claims.finished(c.key);
    if (this.inFlight.get(c.path) === c) this.inFlight.delete(c.path);
    if (this.shared.inFlightKeys.get(c.key) === c.path) this.shared.inFlightKeys.delete(c.key);
    this.folder.status.queued = Math.max(0, this.folder.status.queued - 1);
  }

  dropQueued(): void {
    this.submitter.dropQueued();
  }

  /**
   * The folder closed (nothing new is looked at, nothing queues): waits for the evaluations under way — but not for
   * one stuck reading a stalled share, which stops at its next look at `armed` — and the batches on their way into
   * the journal, so that nothing of this folder touches the journal once the host closes it. Both within `waitMs`
   * together: a batch the engine has not taken by then is abandoned (see BatchSubmitter.idle), so a stalled share or
   * a hung service never holds up the host's shutdown. Says what it stopped waiting for.
   */
  async settle(waitMs = 2_000): Promise<{ evaluations: boolean; batches: boolean }> {
    this.submitter.close();
    const deadline = Date.now() + waitMs;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    const evaluations = await Promise.race([Promise.all([...this.chains.values()]).then(() => true), waited]);
    clearTimeout(timer);
    const batches = await this.submitter.idle(Math.max(0, deadline - Date.now()));
    return { evaluations, batches };
  }

  flush(): Promise<void> {
    return this.submitter.flush();
  }

  /** Why the folder's recipe would stop its batches now, or null (none, or it is fine). */
  async recipeProblem(): Promise<string | null> {
    const check = await this.submitter.checkRecipe();
    return check && !check.ok ? check.reason : null;
  }

  /** The folder's recipe checked now, as before a batch (null: it runs none): the dry run names its deliverables. */
  recipeCheck(): Promise<FolderRecipeCheck | null> {
    return this.submitter.checkRecipe();
  }

  /**
   * Looks at a scan's files (sorted) `concurrency` at a time; the ones to process go out in the batches the dry run
   * plans (batches.ts). `each` looks at one file (default: consider it with `origin`).
   */
  async considerInOrder(paths: readonly string[], origin: Origin, concurrency: number, each?: (path: string) => Promise<void>): Promise<void> {
    const scan = this.submitter.startScan(paths);
    try {
      await runLimited(paths, concurrency, async (path) => {
        try {
          await (each ? each(path) : this.consider(path, origin));
        } finally {
          scan.done(path);
        }
      });
    } finally {
      scan.end();
    }
  }

  clearSessionFailures(): void {
    this.sessionFailed.clear();
  }

  /** An item's outcome: ledger first, then Done/ or Failed/ (outcome-step.ts). */
  handleOutcome(outcome: HotFolderItemOutcome): Promise<void> {
    return this.outcomes.handle(outcome);
  }

  private moveTo(path: string, subfolder: string, itemId: string | null = null, fromSorted?: string): Promise<string | null> {
    return moveOriginalReported(this.folder, this.shared.engine, { path, subfolder, itemId, fromSorted });
  }
}
