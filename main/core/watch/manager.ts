import { resolve } from 'node:path';
import { AppError } from '../../../shared/errors';
import {
  HotFolderConfigSchema, type DryRunReport, type HotFolderActivity, type HotFolderConfigInput, type HotFolderState,
} from '../../../shared/hotfolders/model';
import { silentLogger, type Logger } from '../log';
import type { WorkflowParameters } from '../../../shared/service/model';
import { createMemoryBaselineStore } from './baseline-store';
import { dryRunFolder } from './dry-run';
import { FolderRuntime } from './folder-runtime';
import { defaultInspector } from './inspector';
import {
  createBackgroundWork, previousSettingsAfterSave, reactionToSave, recordOrphanOutcome, runtimeDepsFrom, validateFolderConfig,
  type HotFolderTuning,
} from './manager-parts';
import type { BaselineStore, FileInspector, HotFolderConfigStore } from './ports';
import { scanFolder } from './scan';
import { isStudioLedger, linkStudio } from './studio-link';

export interface HotFolderEvents {
  (channel: 'hotFolders:activity', payload: HotFolderActivity): void;
  (channel: 'hotFolders:changed', payload: HotFolderState[]): void;
}

export interface HotFolderManagerOptions extends HotFolderTuning {
  configStore: HotFolderConfigStore;
  inspector?: FileInspector;
  baseline?: BaselineStore;
  logger?: Logger;
  /** Receives `hotFolders:activity` and (throttled) `hotFolders:changed`; the core's event bus in the app. */
  emit?: HotFolderEvents;
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

export function createHotFolderManager(options: HotFolderManagerOptions): HotFolderManager {
  const logger = (options.logger ?? silentLogger).child('watch');
  const baseline = options.baseline ?? createMemoryBaselineStore();
  const inspector = options.inspector ?? defaultInspector;
  const runtimes = new Map<string, FolderRuntime>();
  const ephemeral = new Set<string>();
  const emit = options.emit ?? (() => undefined);
  const background = createBackgroundWork(options.respondWithinMs ?? 1_000, logger);
  let changedTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const syncRecipe = options.syncRecipe ?? ((config) => config);
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

  // A folder saved for this run only (`watch --recipe --text …`) keeps the values its flags gave over its recipe's.
  const recipeOverrides = new Map<string, WorkflowParameters>();
  const deps = runtimeDepsFrom(options, {
    logger, inspector, baseline, onActivity: (activity) => emit('hotFolders:activity', activity), onStatusChange: scheduleChanged,
    recipeOverrides: (id) => recipeOverrides.get(id),
  });

  const unlinkStudio = isStudioLedger(deps.ledger)
    ? linkStudio({ ledger: deps.ledger, engine: options.engine, runtimes: () => [...runtimes.values()], logger, recheckMs: options.studioRecheckMs ?? 2_000 })
    : () => undefined;

  // Each outcome goes to its folder's pipeline; a folder removed meanwhile still gets its file into the ledger. The
  // promise is returned: the outbox delivers the next outcome only after this one is handled.
  const unsubscribe = options.engine.onItemFinal(async (outcome) => {
    if (!outcome.hotFolderId) return;
    const runtime = runtimes.get(outcome.hotFolderId);
    try {
      if (runtime) await runtime.pipeline.handleOutcome(outcome);
      else await recordOrphanOutcome(options.ledger, outcome);
    } catch (error) {
      logger.error('could not record a hot-folder outcome', { folder: outcome.hotFolderId, error: (error as Error).message });
    }
  });

  const must = (id: string): FolderRuntime => {
    const runtime = runtimes.get(id);
    if (!runtime) throw new AppError('not_found', `no hot folder with id ${id}`);
    return runtime;
  };

  const persist = async () => {
    await options.configStore.save([...runtimes.values()].filter((r) => !ephemeral.has(r.config.id)).map((r) => r.config));
    scheduleChanged();
  };

  async function arm(id: string): Promise<HotFolderState> {
    const runtime = must(id);
    if (runtime.status.state === 'awaiting-review') {
      await background.run(runtime.approveHeld());
    } else if (!runtime.armed) {
      runtime.config = { ...runtime.config, enabled: true };
      await persist();
      await background.run(runtime.arm('fresh'));
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

  async function save(input: HotFolderConfigInput, saveOptions: { persist?: boolean } = {}): Promise<HotFolderState> {
    const raw = HotFolderConfigSchema.parse(input);
    // Absolute paths: the watcher reports paths under the root it was given, and the engine resolves its inputs.
    const absolute = { ...raw, path: resolve(raw.path), outputFolder: resolve(raw.outputFolder) };
    // A folder of the app's that runs a recipe sends the recipe as it is saved (`watch --recipe` made its own config).
    const parsed = saveOptions.persist === false ? absolute : syncRecipe(absolute);
    validateFolderConfig(parsed);
    if (saveOptions.persist === false) ephemeral.add(parsed.id);
    if (saveOptions.persist === false && parsed.recipe && options.recipeOverrides) recipeOverrides.set(parsed.id, options.recipeOverrides(parsed));
    else recipeOverrides.delete(parsed.id);
    const runtime = runtimes.get(parsed.id);
    if (!runtime) {
      const fresh = new FolderRuntime({ ...parsed, previousSettings: [] }, deps);
      runtimes.set(parsed.id, fresh);
      await persist();
      if (parsed.enabled) await background.run(fresh.arm('fresh'));
      return stateOf(fresh);
    }
    const before = runtime.config;
    runtime.config = { ...parsed, previousSettings: previousSettingsAfterSave(before, parsed) };
    await persist();
    const reaction = reactionToSave(runtime, before, runtime.config);
    if (reaction === 'disarm') await runtime.disarm();
    else if (reaction === 'arm-fresh') await background.run(runtime.arm('fresh'));
    else if (reaction === 'rearm-resume') await background.run(runtime.arm('resume'));
    else if (reaction === 'skip-held') await background.run(runtime.skipHeld());
    else if (reaction === 'approve-held') await background.run(runtime.approveHeld());
    return stateOf(runtime);
  }

  async function reprocess(id: string): Promise<HotFolderState> {
    const runtime = must(id);
    runtime.config = { ...runtime.config, previousSettings: [] };
    runtime.pipeline.clearSessionFailures();
    await persist();
    if (runtime.status.state === 'armed') {
      await background.run((async () => {
        const files = await scanFolder(runtime.config.path, runtime.config.recursive, (p) => runtime.isIgnored(p)).catch(() => []);
        await runtime.pipeline.considerInOrder(files, 'reprocess', deps.hashConcurrency);
      })());
    }
    return stateOf(runtime);
  }

  return {
    async start() {
      const configs = await options.configStore.load();
      if (closed) return; // closed while it loaded (the host stopped while it started): nothing is armed
      for (const config of configs) {
        if (runtimes.has(config.id)) continue;
        // A recipe edited while the app was closed: photos done with its old parameters still count as done.
        const synced = syncRecipe(config);
        runtimes.set(config.id, new FolderRuntime(synced === config ? config : { ...synced, previousSettings: previousSettingsAfterSave(config, synced) }, deps));
      }
      // Every folder resumes on its own: one unreachable share never delays or stops the others.
      await background.run(Promise.all([...runtimes.values()].filter((r) => r.config.enabled).map((r) => r.arm('resume'))).then(() => undefined));
      scheduleChanged();
    },
    list,
    get: (id) => stateOf(must(id)),
    save,
    async remove(id) {
      const runtime = runtimes.get(id);
      if (!runtime) return false;
      await runtime.close();
      runtimes.delete(id);
      ephemeral.delete(id);
      await baseline.clear(id);
      await deps.hashCache.clear(id);
      await persist();
      return true;
    },
    arm,
    disarm,
    setArmed: (id, armed) => (armed ? arm(id) : disarm(id)),
    dryRun: async (id) => dryRunFolder(must(id), { engine: options.engine, inspector, hashLimit: deps.hashLimit, concurrency: deps.hashConcurrency, maxBatchSize: deps.maxBatchSize }),
    reprocess,
    hasArmed: () => [...runtimes.values()].some((r) => r.armed),
    settled: () => background.settled(),
    async close() {
      closed = true;
      unsubscribe();
      unlinkStudio();
      if (changedTimer) clearTimeout(changedTimer);
      // Closing first makes running scans stop at their next file; then nothing is left touching the folders.
      await Promise.all([...runtimes.values()].map((r) => r.close()));
      await background.settled();
    },
  };
}
