import { resolve } from 'node:path';
import { AppError } from '../../../shared/errors';
import {
  HotFolderConfigSchema, type DryRunReport, type HotFolderActivity, type HotFolderConfig, type HotFolderConfigInput,
  type HotFolderState,
} from '../../../shared/hotfolders/model';
import { ledgerKey, parametersHash } from '../journal/ledger-key';
import { silentLogger, type Logger } from '../log';
import { createMemoryBaselineStore } from './baseline-store';
import { createMemoryHashCache, type HashCacheStore } from './hash-cache';
import { dryRunFolder } from './dry-run';
import { FolderRuntime } from './folder-runtime';
import { DEFAULT_WATCH_TIMINGS, type WatchTimings } from './folder-watcher';
import { isInside } from './ignore';
import { createLimiter, runLimited } from './limit';
import { defaultInspector } from './inspector';
import type { BaselineStore, FileInspector, HotFolderConfigStore, HotFolderEngine, HotFolderItemOutcome, HotFolderLedger } from './ports';
import { scanFolder } from './scan';

export interface HotFolderEvents {
  (channel: 'hotFolders:activity', payload: HotFolderActivity): void;
  (channel: 'hotFolders:changed', payload: HotFolderState[]): void;
}

export interface HotFolderManagerOptions {
  engine: HotFolderEngine;
  ledger: HotFolderLedger;
  configStore: HotFolderConfigStore;
  inspector?: FileInspector;
  baseline?: BaselineStore;
  hashCache?: HashCacheStore;
  logger?: Logger;
  /** Receives `hotFolders:activity` and (throttled) `hotFolders:changed`; the core's event bus in the app. */
  emit?: HotFolderEvents;
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
  changedThrottleMs?: number;
  /**
   * Arming scans the folder (and hashes what it has not seen): calls wait at most this long for that, then answer
   * with the folder still 'scanning' and let `hotFolders:changed` report the rest. Default 1,000 ms.
   */
  respondWithinMs?: number;
}

export interface HotFolderManager {
  /** Loads the configured folders and resumes the armed ones (files added while closed are picked up once). */
  start(): Promise<void>;
  list(): HotFolderState[];
  get(id: string): HotFolderState;
  /**
   * Create or update by id. `persist: false` keeps the folder out of the config store (`batchroom watch <dir>`:
   * watched for this run only, never added to the app's settings).
   */
  save(input: HotFolderConfigInput, options?: { persist?: boolean }): Promise<HotFolderState>;
  remove(id: string): Promise<boolean>;
  arm(id: string): Promise<HotFolderState>;
  disarm(id: string): Promise<HotFolderState>;
  setArmed(id: string, armed: boolean): Promise<HotFolderState>;
  dryRun(id: string): Promise<DryRunReport>;
  reprocess(id: string): Promise<HotFolderState>;
  hasArmed(): boolean;
  /** Resolves when every arm / scan / review decision started so far has finished (tests, the CLI). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const MAX_PREVIOUS_SETTINGS = 20;

export function createHotFolderManager(options: HotFolderManagerOptions): HotFolderManager {
  const logger = (options.logger ?? silentLogger).child('watch');
  const baseline = options.baseline ?? createMemoryBaselineStore();
  const inspector = options.inspector ?? defaultInspector;
  const hashConcurrency = options.hashConcurrency ?? 4;
  const hashLimit = createLimiter(hashConcurrency);
  const runtimes = new Map<string, FolderRuntime>();
  const ephemeral = new Set<string>();
  const emit = options.emit ?? (() => undefined);
  let changedTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const stateOf = (runtime: FolderRuntime): HotFolderState => ({ config: { ...runtime.config }, status: { ...runtime.status } });
  const list = () => [...runtimes.values()].map(stateOf);

  const scheduleChanged = () => {
    if (changedTimer || closed) return;
    changedTimer = setTimeout(() => {
      changedTimer = null;
      if (!closed) emit('hotFolders:changed', list());
    }, options.changedThrottleMs ?? 100);
    changedTimer.unref();
  };

  const runtimeDeps = {
    engine: options.engine,
    ledger: options.ledger,
    inspector,
    baseline,
    hashCache: options.hashCache ?? createMemoryHashCache(),
    logger,
    inFlightKeys: new Map<string, string>(),
    hashLimit,
    hashConcurrency,
    coalesceMs: options.coalesceMs ?? 150,
    maxBatchSize: options.maxBatchSize ?? 500,
    deferCheckMs: options.deferCheckMs ?? 2_000,
    maxDeferMs: options.maxDeferMs ?? 60_000,
    retryMs: options.retryMs ?? 30_000,
    timings: { ...DEFAULT_WATCH_TIMINGS, ...options.timings },
    availabilityIntervalMs: options.availabilityIntervalMs ?? 5_000,
    availabilityTimeoutMs: options.availabilityTimeoutMs ?? 5_000,
    onActivity: (activity: HotFolderActivity) => emit('hotFolders:activity', activity),
    onStatusChange: scheduleChanged,
  };

  const unsubscribe = options.engine.onItemFinal((outcome) => routeOutcome(outcome));

  async function routeOutcome(outcome: HotFolderItemOutcome): Promise<void> {
    if (!outcome.hotFolderId) return;
    const runtime = runtimes.get(outcome.hotFolderId);
    try {
      if (runtime) await runtime.pipeline.handleOutcome(outcome);
      else await recordOrphan(outcome);
    } catch (error) {
      logger.error('could not record a hot-folder outcome', { folder: outcome.hotFolderId, error: (error as Error).message });
    }
  }

  /** The folder was removed while its batch ran: the ledger still learns the file is done (it was paid for). */
  async function recordOrphan(outcome: HotFolderItemOutcome): Promise<void> {
    if (!outcome.contentHash || !outcome.workflowId || !outcome.parametersHash || outcome.state === 'skipped') return;
    await options.ledger.record({
      key: ledgerKey(outcome.contentHash, outcome.workflowId, outcome.parametersHash), contentHash: outcome.contentHash,
      workflowId: outcome.workflowId, parametersHash: outcome.parametersHash, sourcePath: outcome.sourcePath,
      outcome: outcome.state, outputs: outcome.outputs, executionId: outcome.executionId, itemId: outcome.itemId,
      hotFolderId: outcome.hotFolderId,
    });
  }

  const work = new Set<Promise<void>>();
  /** Runs a folder operation in the background, waiting for it at most respondWithinMs. */
  const background = async (operation: Promise<void>): Promise<void> => {
    const tracked = operation.catch((error) => logger.error('hot-folder operation failed', { error: (error as Error).message }));
    work.add(tracked);
    void tracked.finally(() => work.delete(tracked));
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((done) => {
      timer = setTimeout(done, options.respondWithinMs ?? 1_000);
    });
    await Promise.race([tracked, limit]);
    clearTimeout(timer);
  };

  const must = (id: string): FolderRuntime => {
    const runtime = runtimes.get(id);
    if (!runtime) throw new AppError('not_found', `no hot folder with id ${id}`);
    return runtime;
  };

  const persist = async () => {
    await options.configStore.save([...runtimes.values()].filter((r) => !ephemeral.has(r.config.id)).map((r) => r.config));
    scheduleChanged();
  };

  function validate(config: HotFolderConfig): void {
    if (isInside(config.path, config.outputFolder)) {
      throw new AppError('validation', 'the output folder cannot be the watched folder or contain it: results would be processed again', { field: 'outputFolder' });
    }
  }

  async function arm(id: string): Promise<HotFolderState> {
    const runtime = must(id);
    if (runtime.status.state === 'awaiting-review') {
      await background(runtime.approveHeld());
    } else if (!runtime.armed) {
      runtime.config = { ...runtime.config, enabled: true };
      await persist();
      await background(runtime.arm('fresh'));
    }
    return stateOf(runtime);
  }

  async function disarm(id: string): Promise<HotFolderState> {
    const runtime = must(id);
    runtime.config = { ...runtime.config, enabled: false };
    await persist();
    await runtime.disarm();
    return stateOf(runtime);
  }

  return {
    async start() {
      for (const config of await options.configStore.load()) {
        if (!runtimes.has(config.id)) runtimes.set(config.id, new FolderRuntime(config, runtimeDeps));
      }
      // Every folder resumes on its own: one unreachable share never delays or stops the others.
      await background(Promise.all([...runtimes.values()].filter((r) => r.config.enabled).map((r) => r.arm('resume'))).then(() => undefined));
      scheduleChanged();
    },
    list,
    get: (id) => stateOf(must(id)),
    async save(input, saveOptions = {}) {
      const raw = HotFolderConfigSchema.parse(input);
      // Absolute paths: the watcher reports paths under the root it was given, and the engine resolves its inputs.
      const parsed = { ...raw, path: resolve(raw.path), outputFolder: resolve(raw.outputFolder) };
      validate(parsed);
      const runtime = runtimes.get(parsed.id);
      if (saveOptions.persist === false) ephemeral.add(parsed.id);
      if (!runtime) {
        const fresh = new FolderRuntime({ ...parsed, previousSettings: [] }, runtimeDeps);
        runtimes.set(parsed.id, fresh);
        await persist();
        if (parsed.enabled) await background(fresh.arm('fresh'));
        return stateOf(fresh);
      }
      const before = runtime.config;
      const previousSettings = [...before.previousSettings];
      const oldSettings = { workflowId: before.workflowId, parametersHash: parametersHash(before.parameters) };
      if (oldSettings.workflowId !== parsed.workflowId || oldSettings.parametersHash !== parametersHash(parsed.parameters)) {
        if (!previousSettings.some((s) => s.workflowId === oldSettings.workflowId && s.parametersHash === oldSettings.parametersHash)) {
          previousSettings.unshift(oldSettings);
        }
      }
      runtime.config = { ...parsed, previousSettings: previousSettings.slice(0, MAX_PREVIOUS_SETTINGS) };
      await persist();
      const watchChanged = before.path !== parsed.path || before.recursive !== parsed.recursive
        || before.outputFolder !== parsed.outputFolder || before.polling !== parsed.polling;
      if (!parsed.enabled && runtime.armed) await runtime.disarm();
      else if (parsed.enabled && !runtime.armed) await background(runtime.arm('fresh'));
      else if (runtime.status.state === 'awaiting-review' && parsed.existingFiles === 'skip') await background(runtime.skipHeld());
      else if (runtime.status.state === 'awaiting-review' && parsed.existingFiles === 'process') await background(runtime.approveHeld());
      else if (runtime.armed && watchChanged) await background(runtime.arm(before.path === parsed.path ? 'resume' : 'fresh'));
      return stateOf(runtime);
    },
    async remove(id) {
      const runtime = runtimes.get(id);
      if (!runtime) return false;
      await runtime.close();
      runtimes.delete(id);
      ephemeral.delete(id);
      await baseline.clear(id);
      await runtimeDeps.hashCache.clear(id);
      await persist();
      return true;
    },
    arm,
    disarm,
    setArmed: (id, armed) => (armed ? arm(id) : disarm(id)),
    dryRun: async (id) => dryRunFolder(must(id), { engine: options.engine, inspector, hashLimit, concurrency: hashConcurrency }),
    async reprocess(id) {
      const runtime = must(id);
      runtime.config = { ...runtime.config, previousSettings: [] };
      runtime.pipeline.clearSessionFailures();
      await persist();
      if (runtime.status.state === 'armed') {
        await background((async () => {
          const files = await scanFolder(runtime.config.path, runtime.config.recursive, (p) => runtime.isIgnored(p)).catch(() => []);
          await runLimited(files, hashConcurrency, (path) => runtime.pipeline.consider(path, 'reprocess'));
        })());
      }
      return stateOf(runtime);
    },
    hasArmed: () => [...runtimes.values()].some((r) => r.armed),
    async settled() {
      while (work.size > 0) await Promise.all([...work]);
    },
    async close() {
      closed = true;
      unsubscribe();
      if (changedTimer) clearTimeout(changedTimer);
      // Closing first makes running scans stop at their next file; then nothing is left touching the folders.
      await Promise.all([...runtimes.values()].map((r) => r.close()));
      await Promise.all([...work]);
    },
  };
}
