import { finishedWithin } from '../finished-within';
import { BACKOFF, backoffDelay, startingAt } from '../service/retry';
import { unitsWithin } from '../../../shared/engine/money';
import type { HotFolderActivity, HotFolderConfig, HotFolderStatus } from '../../../shared/hotfolders/model';
import type { HotFolderEngine } from './ports';
import { folderBatches, ScanBatches } from './batches';
import type { FolderFixedImages, FolderRecipe, FolderRecipeCheck, FolderRecipes } from '../recipes/recipe-plan';
import type { WorkflowParameters } from '../../../shared/service/model';
import { parametersHash } from '../journal/ledger-key';
import { previousSettingsAfterSave } from './previous-settings';
import { folderBatchSpec, unitHash } from './folder-unit';

export { folderBatchSpec };

const WAITING = 'could not submit; retrying in';
/** The batching window for a photo that arrives alone (after `coalesceMs` without any). */
const LONE_FILE_MS = 20;

/** A file on its way to the engine: reserved under its ledger key until its item ends. */
export interface Candidate {
  path: string;
  key: string;
  contentHash: string;
  fingerprint: string;
  batchId: string | null;
  workflowId: string;
  parametersHash: string;
  /** The user asked to process it again (reprocess): it may pay again for a photo already paid for. */
  payAgain?: boolean;
  /** The photo's own content hash when `contentHash` is that of the photo with the recipe's fixed images. */
  photoHash?: string;
}

export interface SubmitterDeps {
  engine: HotFolderEngine;
  /** A shared (studio) ledger reserves the folder's budget with each claim, for every instance together. */
  ledger?: { readonly shared: boolean };
  coalesceMs: number;
  maxBatchSize: number;
  retryMs: number;
  /** Looks up and checks a folder's recipe before each batch (absent: recipes are not available here). */
  recipes?: FolderRecipes;
  /** The values a folder keeps over its recipe's parameters (`watch --recipe --text …`), by folder id. */
  recipeOverrides?: (folderId: string) => WorkflowParameters | undefined;
}

export interface SubmitterFolder {
  config: HotFolderConfig;
  status: HotFolderStatus;
  activity(kind: HotFolderActivity['kind'], path: string, message: string): void;
}

/**
 * Gathers a folder's detected files into batches (a short window, one batch per sub-folder so the engine mirrors
 * the layout), keeps the folder's budget, and retries with backoff when the engine refuses a batch.
 */
export class BatchSubmitter {
  private queue: Candidate[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private submitFailures = 0;
  private creditCostCache: { workflowId: string; cost: number } | null = null;
  private committedCredits = 0;
  private lastEnqueueAt = -Infinity;
  /** Flushes under way (their batch not yet in the journal): idle() waits for them. */
  private readonly flushing = new Set<Promise<void>>();
  private closed = false;
  /** Aborted when a close stops waiting for a flush: the engine then journals nothing for it (it may still be reading). */
  private readonly abandoned = new AbortController();
  /** A scan under way: its candidates go out in the batches the dry run plans, not by timing. */
  private scan: ScanBatches<Candidate> | null = null;

  constructor(
    private readonly folder: SubmitterFolder,
    private readonly deps: SubmitterDeps,
    /** Gives a candidate's reservation back (not submitted after all). */
    private readonly release: (c: Candidate) => void,
    /** Looks at a path again (after a refused batch). */
    private readonly reconsider: (path: string) => void,
  ) {}

  enqueue(candidate: Candidate): void {
    if (this.closed) return this.release(candidate); // the folder closed while this photo was looked at
    this.folder.status.queued++;
    if (this.scan?.take(candidate)) return;
    this.queue.push(candidate);
    const now = Date.now();
    // A photo arriving after a quiet spell goes almost at once (the short window still gathers files detected in
    // the same moment); while files keep coming, the full window gathers them into one batch.
    const quiet = now - this.lastEnqueueAt >= this.deps.coalesceMs;
    this.lastEnqueueAt = now;
    if (this.queue.length >= this.deps.maxBatchSize) void this.flush();
    else if (!this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), quiet ? Math.min(LONE_FILE_MS, this.deps.coalesceMs) : this.deps.coalesceMs);
  }

  /**
   * A scan (arming, approving held files, reprocessing) looks at these files, sorted: the ones it queues go out in
   * `folderBatches` of this order — the batches the dry run names. Call `done(path)` after each file and `end()`
   * after the last (or when the scan stops). A scan still under way when another starts ends first.
   */
  startScan(order: readonly string[]): { done(path: string): void; end(): void } {
    this.scan?.end();
    const scan = new ScanBatches<Candidate>(order, this.folder.config.path, this.deps.maxBatchSize, (items) => void this.track(this.submitCandidates(items)));
    this.scan = scan;
    return {
      done: (path) => scan.done(path),
      end: () => {
        scan.end();
        if (this.scan === scan) this.scan = null;
      },
    };
  }

  /** Submits what accumulated: one batch per sub-folder, so results mirror the folder's layout in the output. */
  flush(): Promise<void> {
    return this.track(this.submitQueued());
  }

  private track(flushing: Promise<void>): Promise<void> {
    this.flushing.add(flushing);
    void flushing.finally(() => this.flushing.delete(flushing)).catch(() => undefined);
    return flushing;
  }

  /** The folder closed: what is queued is dropped, and nothing queues any more. */
  close(): void {
    this.closed = true;
    this.dropQueued();
  }

  /**
   * Every flush under way has handed its batch to the engine (or failed): true. False once `waitMs` has passed — a
   * createBatch that reads a stalled share or waits on a hung service may never answer, and the host's shutdown waits
   * on this — and the flushes still under way are abandoned: the engine journals nothing for them, so their photos
   * stay in the folder, unrecorded, and the next start picks them up once.
   */
  async idle(waitMs = Infinity): Promise<boolean> {
    const drained = (async () => {
      while (this.flushing.size > 0) await Promise.allSettled([...this.flushing]);
    })();
    const done = await finishedWithin(drained, waitMs);
    if (!done) this.abandoned.abort(new Error('the hot folder closed before the engine took the batch'));
    return done;
  }

  private async submitQueued(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.queue.splice(0);
    if (batch.length > 0) await this.submitCandidates(batch);
  }

  private async submitCandidates(incoming: Candidate[]): Promise<void> {
    const recipe = await this.folderRecipe(incoming);
    if (recipe === false) return;
    if (recipe) this.takeRecipeParameters(recipe.parameters);
    const candidates = recipe ? this.sameFixedImages(incoming, recipe.fixed) : incoming;
    if (candidates.length === 0) return;
    const config = this.folder.config;
    const batch = await this.applyBudget(candidates);
    for (const { rel, items } of folderBatches(batch, (c) => c.path, config.path, this.deps.maxBatchSize)) {
      if (this.abandoned.signal.aborted) {
        for (const c of items) this.release(c); // the close stopped waiting: the next start looks at them again
        continue;
      }
      const spec = folderBatchSpec(config, items.map((c) => c.path), rel, items.filter((c) => c.payAgain).map((c) => c.path), recipe);
      try {
        const { batchId } = await this.deps.engine.submit(spec, { signal: this.abandoned.signal });
        this.submitFailures = 0;
        if (this.folder.status.reason?.startsWith(WAITING)) this.folder.status.reason = null;
        for (const c of items) {
          c.batchId = batchId;
          this.folder.activity('queued', c.path, `submitted in batch ${batchId}`);
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        for (const c of items) this.release(c);
        if (this.closed) continue; // abandoned at close (or refused meanwhile): the next start looks at them again
        this.folder.activity('failed', items[0]!.path, `could not start a batch of ${items.length}: ${message}`);
        // A refusal about the request itself (nothing usable in it) will not change by waiting.
        const code = (error as { code?: unknown }).code;
        if (code !== 'validation' && code !== 'bad_request') this.retryLater(items.map((c) => c.path), message);
      }
    }
  }

  /**
   * The folder's recipe as it is now (undefined: the folder runs none). One that is gone, no longer fits the workflow,
   * changed price or lost an image stops the batch before anything is sent: the folder says why (its status), its
   * photos stay and are looked at again later — once the recipe is fixed they go.
   */
  private async folderRecipe(candidates: Candidate[]): Promise<FolderRecipe | undefined | false> {
    const check = await this.checkRecipe();
    if (check === null) return undefined;
    if (check.ok) return check.value;
    for (const c of candidates) this.release(c);
    if (this.closed) return false;
    this.folder.activity('failed', candidates[0]!.path, `${candidates.length === 1 ? '1 photo' : `${candidates.length} photos`} not sent: ${check.reason}`);
    this.retryLater(candidates.map((c) => c.path), check.reason);
    return false;
  }

  /**
   * The recipe's parameters as saved now become the folder's (an armed folder follows an edited recipe at its next
   * batch): the ones it had go into previousSettings, so photos already done with them are not paid again, and the
   * done-ledger lookups and the batch both use the new ones.
   */
  private takeRecipeParameters(parameters: WorkflowParameters): void {
    const config = this.folder.config;
    if (parametersHash(parameters) === parametersHash(config.parameters)) return;
    this.folder.config = { ...config, parameters, previousSettings: previousSettingsAfterSave(config, { workflowId: config.workflowId, parameters }) };
  }

  /** Candidates looked at under other fixed images (the recipe saved meanwhile) are looked at again, not sent. */
  private sameFixedImages(candidates: Candidate[], fixed: FolderFixedImages | undefined): Candidate[] {
    const stale = candidates.filter((c) => unitHash(c.photoHash ?? c.contentHash, fixed) !== c.contentHash);
    for (const c of stale) {
      this.release(c);
      this.reconsider(c.path);
    }
    return candidates.filter((c) => !stale.includes(c));
  }

  /** The fixed images of the recipe as last checked (null: none, or it cannot be sent now), and its file's stamp then. */
  private lastFixed: { fixed: FolderFixedImages | null; stamp: string | null } | undefined;

  /**
   * The fixed images each photo goes with: its ledger key covers them (folder-unit.ts). Checked again when the recipe
   * file changed since the last check (saved with another reference), else the last check's.
   */
  async fixedImages(): Promise<FolderFixedImages | null> {
    const { recipe } = this.folder.config;
    if (!recipe) return null;
    if (this.lastFixed === undefined || this.lastFixed.stamp !== (this.deps.recipes?.stamp?.(recipe) ?? null)) await this.checkRecipe();
    return this.lastFixed?.fixed ?? null;
  }

  /** The folder's recipe checked now (null: it runs none): arming says at once what would stop its batches. */
  async checkRecipe(): Promise<FolderRecipeCheck | null> {
    const { id, recipe, workflowId, recipeAcceptedCost, imageField } = this.folder.config;
    if (!recipe) return null;
    const stamp = this.deps.recipes?.stamp?.(recipe) ?? null;
    const check: FolderRecipeCheck = this.deps.recipes
      ? await this.deps.recipes(recipe, { workflowId, imageField, recipeAcceptedCost, overrides: this.deps.recipeOverrides?.(id) ?? {} })
      : { ok: false, reason: `recipe '${recipe}': recipes cannot be read here; nothing is sent` };
    this.lastFixed = { fixed: check.ok ? check.value.fixed ?? null : null, stamp };
    return check;
  }

  /**
   * The engine refused the batch (offline, out of credits, output folder not writable): the files stay where they
   * are and are looked at again later, backing off from the retry interval up to 10 minutes.
   */
  private retryLater(paths: string[], message: string): void {
    this.submitFailures++;
    const delay = backoffDelay(startingAt(BACKOFF.hotFolderRefused, this.deps.retryMs), this.submitFailures - 1);
    this.folder.status.reason = `${WAITING} ${Math.round(delay / 1000)} s: ${message}`;
    setTimeout(() => {
      for (const path of paths) this.reconsider(path);
    }, delay).unref();
  }

  /** Keeps the folder's budget cap: files beyond it stay in the folder, reported, not submitted. */
  private async applyBudget(batch: Candidate[]): Promise<Candidate[]> {
    const { budget, workflowId } = this.folder.config;
    if (budget === null || this.deps.ledger?.shared) return batch;
    if (this.creditCostCache?.workflowId !== workflowId) {
      this.creditCostCache = { workflowId, cost: await this.deps.engine.creditCost(workflowId).catch(() => 0) };
    }
    const cost = this.creditCostCache.cost;
    if (cost <= 0) return batch;
    const left = budget - this.folder.status.creditsSpent - this.committedCredits;
    const allowed = unitsWithin(left, cost);
    for (const c of batch.slice(allowed)) {
      this.release(c);
      this.folder.activity('skipped', c.path, `budget of ${budget} credits reached`);
    }
    if (batch.length > allowed) this.folder.status.reason = `budget of ${budget} credits reached`;
    const kept = batch.slice(0, allowed);
    this.committedCredits += kept.length * cost;
    return kept;
  }

  /** Files detected but not yet submitted are dropped (disarm); submitted ones finish in the engine. */
  dropQueued(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (const c of this.queue.splice(0)) this.release(c);
    for (const c of this.scan?.drop() ?? []) this.release(c);
    this.scan = null;
  }

  /** An item of this folder ended: its credits are spent (outcome) rather than committed. */
  settled(creditsCharged: number): void {
    if (this.creditCostCache && this.folder.config.budget !== null) {
      this.committedCredits = Math.max(0, this.committedCredits - this.creditCostCache.cost);
    }
    this.folder.status.creditsSpent += creditsCharged;
  }
}
