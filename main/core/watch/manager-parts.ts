import type { HotFolderActivity, HotFolderConfig } from '../../../shared/hotfolders/model';
import { AppError } from '../../../shared/errors';
import { ledgerKey } from '../journal/ledger-key';
export { previousSettingsAfterSave } from './previous-settings';
import type { Logger } from '../log';
import type { FolderRuntime, RuntimeDeps } from './folder-runtime';
import { createMemoryHashCache } from './hash-cache';
import { DEFAULT_WATCH_TIMINGS } from './folder-watcher';
import { isInside } from '../media/inside-root';
import { createLimiter } from './limit';
import type { HotFolderEngine, HotFolderItemOutcome, HotFolderLedger } from './ports';
import { localLedger, type Ledger } from '../studio/ledger';
import type { HashCacheStore } from './hash-cache';
import type { WatchTimings } from './folder-watcher';
import type { FolderRecipes } from '../recipes/recipe-plan';
import type { WorkflowParameters } from '../../../shared/service/model';

// The hot-folder manager's pieces that need none of its state: defaults, the save rules, orphan outcomes and the
// background-work tracker. manager.ts keeps only the map of folders and the public operations.

/** How the manager's folders work: the services they use and the timings (tests shorten them). */
export interface HotFolderTuning {
  engine: HotFolderEngine;
  /** The local journal's ledger (one machine), or a Ledger with claims (the studio ledger, several machines). */
  ledger: HotFolderLedger | Ledger;
  hashCache?: HashCacheStore;
  timings?: Partial<WatchTimings>;
  /** How often an armed folder is checked for having vanished or come back. */
  availabilityIntervalMs?: number;
  availabilityTimeoutMs?: number;
  /** Files detected within this window go to the engine as one batch. */
  coalesceMs?: number;
  maxBatchSize?: number;
  hashConcurrency?: number;
  deferCheckMs?: number;
  maxDeferMs?: number;
  retryMs?: number;
  /** Studio mode: how often files another instance holds are looked at again. */
  studioRecheckMs?: number;
  /** A RAW+JPEG half the pairing leaves out waits this long after it arrives for its partner (default 5 s). */
  rawPairWaitMs?: number;
  /** Studio mode: photos claimed ahead of the engine (default 8); the rest waits for whichever instance has room. */
  studioClaimAhead?: number;
  /** A folder's recipe, checked before each batch (main/core/recipes/recipe-plan.ts); absent: a recipe folder sends nothing. */
  recipes?: FolderRecipes;
  /** A saved folder's workflow, parameters and output settings, taken again from its recipe (the recipe may have been edited). */
  syncRecipe?: (config: HotFolderConfig) => HotFolderConfig;
  /** What a folder saved for this run only (`watch --recipe --text …`) keeps over its recipe's parameters. */
  recipeOverrides?: (config: HotFolderConfig) => WorkflowParameters;
}

/** Every folder runtime's dependencies, with the defaults filled in. */
export function runtimeDepsFrom(
  options: HotFolderTuning,
  parts: {
    logger: Logger; inspector: RuntimeDeps['inspector']; baseline: RuntimeDeps['baseline']; onActivity: (a: HotFolderActivity) => void; onStatusChange: () => void;
    recipeOverrides?: (folderId: string) => WorkflowParameters | undefined;
  },
): RuntimeDeps {
  const hashConcurrency = options.hashConcurrency ?? 4;
  return {
    engine: options.engine,
    ledger: asLedger(options.ledger),
    inspector: parts.inspector,
    baseline: parts.baseline,
    hashCache: options.hashCache ?? createMemoryHashCache(),
    logger: parts.logger,
    inFlightKeys: new Map<string, string>(),
    hashLimit: createLimiter(hashConcurrency),
    hashConcurrency,
    coalesceMs: options.coalesceMs ?? 150,
    maxBatchSize: options.maxBatchSize ?? 500,
    deferCheckMs: options.deferCheckMs ?? 2_000,
    maxDeferMs: options.maxDeferMs ?? 60_000,
    retryMs: options.retryMs ?? 30_000,
    studioClaimAhead: options.studioClaimAhead ?? 8,
    rawPairWaitMs: options.rawPairWaitMs ?? 5_000,
    ...(options.recipes ? { recipes: options.recipes } : {}),
    ...(parts.recipeOverrides ? { recipeOverrides: parts.recipeOverrides } : {}),
    timings: { ...DEFAULT_WATCH_TIMINGS, ...options.timings },
    availabilityIntervalMs: options.availabilityIntervalMs ?? 5_000,
    availabilityTimeoutMs: options.availabilityTimeoutMs ?? 5_000,
    onActivity: parts.onActivity,
    onStatusChange: parts.onStatusChange,
  };
}

/** A plain outcome ledger claims nothing: every claim is granted (the in-flight set keeps one machine exact). */
export function asLedger(ledger: HotFolderLedger | Ledger): Ledger {
  return 'claim' in ledger ? ledger : localLedger(ledger);
}

export function validateFolderConfig(config: Pick<HotFolderConfig, 'path' | 'outputFolder'>): void {
  if (isInside(config.path, config.outputFolder)) {
    throw new AppError('validation', 'the output folder cannot be the watched folder or contain it: results would be processed again', { field: 'outputFolder' });
  }
}

/** What a saved change asks of a running folder. */
export type SaveReaction = 'disarm' | 'arm-fresh' | 'rearm-resume' | 'skip-held' | 'approve-held' | 'none';

export function reactionToSave(runtime: Pick<FolderRuntime, 'armed'> & { status: { state: string } }, before: HotFolderConfig, next: HotFolderConfig): SaveReaction {
  const watchChanged = before.path !== next.path || before.recursive !== next.recursive || before.outputFolder !== next.outputFolder || before.polling !== next.polling;
  if (!next.enabled && runtime.armed) return 'disarm';
  if (next.enabled && !runtime.armed) return 'arm-fresh';
  if (runtime.status.state === 'awaiting-review' && next.existingFiles === 'skip') return 'skip-held';
  if (runtime.status.state === 'awaiting-review' && next.existingFiles === 'process') return 'approve-held';
  // A new path is a new folder (nothing of the old one is "already seen"); the same path resumes from its baseline.
  if (runtime.armed && watchChanged) return before.path === next.path ? 'rearm-resume' : 'arm-fresh';
  return 'none';
}

/** The folder was removed while its batch ran: the ledger still learns the file is done (it was paid for). */
export async function recordOrphanOutcome(ledger: HotFolderLedger, outcome: HotFolderItemOutcome): Promise<void> {
  if (!outcome.contentHash || !outcome.workflowId || !outcome.parametersHash || outcome.state === 'skipped') return;
  await ledger.record({
    key: ledgerKey(outcome.contentHash, outcome.workflowId, outcome.parametersHash), contentHash: outcome.contentHash,
    workflowId: outcome.workflowId, parametersHash: outcome.parametersHash, sourcePath: outcome.sourcePath,
    outcome: outcome.state, outputs: outcome.outputs, executionId: outcome.executionId, itemId: outcome.itemId,
    hotFolderId: outcome.hotFolderId, creditsCharged: outcome.creditsCharged,
  });
}

export interface BackgroundWork {
  /** Runs an operation in the background, waiting for it at most `respondWithinMs` (the rest is reported by events). */
  run(operation: Promise<void>): Promise<void>;
  /** Resolves when everything started so far has finished, including work started meanwhile. */
  settled(): Promise<void>;
}

export function createBackgroundWork(respondWithinMs: number, logger: Logger): BackgroundWork {
  const work = new Set<Promise<void>>();
  return {
    async run(operation) {
      const tracked = operation.catch((error) => logger.error('hot-folder operation failed', { error: (error as Error).message }));
      work.add(tracked);
      void tracked.finally(() => work.delete(tracked));
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((done) => {
        timer = setTimeout(done, respondWithinMs);
      });
      await Promise.race([tracked, limit]);
      clearTimeout(timer);
    },
    async settled() {
      while (work.size > 0) await Promise.all([...work]);
    },
  };
}
