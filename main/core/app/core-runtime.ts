import { finishedWithin } from '../finished-within';
import { join } from 'node:path';
import { hotFolderChannels } from '../../../shared/ipc/channels/hotfolders';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import { APP_VERSION } from '../../../shared/app-info';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { SettingsStore } from '../settings';
import { connectStudioLedger, studioInstanceId } from '../studio/connect';
import { createStudioHandlers } from '../studio/handlers';
import { keychainLoader } from '../studio/keychain';
import type { StudioLedger } from '../studio/studio-ledger';
import { localClaimKeys, localUnsentKeys } from '../studio/local-unsent';
import { studioSubmitHooks } from '../studio/submit-hooks';
import { createThumbnailCache } from '../images/thumbnails';
import { createViewableOriginals } from '../images/viewable';
import type { HotFolderEvents, HotFolderManager } from '../watch';
import { createCoreHotFolders, journalLedger, settingsConfigStore } from '../watch/adapters';
import { createEngineSlot, type EngineMode, type EngineSlot } from './engine-slot';
import type { EventBus } from './event-bus';
import { createFileHandlers } from './file-handlers';
import { beforeStartStep, untilAborted } from './start-steps';
import type { PathGrants } from './path-grants';
import type { CoreOptions } from './types';
import { unavailableHandlers } from './unavailable';

// The core's heavy half: the journal (libsql), the engine, hot folders, the studio ledger and the file channels
// (previews and thumbnails: sharp). createCore imports this module only after it has handed the host its service
// channels, so a host answers the catalog without waiting for these to load (≈ 150 ms of sharp, semver and libsql).

export interface CoreRuntime {
  readonly engine: EngineSlot;
  readonly hotFolders?: HotFolderManager;
  readonly handlers: EngineSlot['handlers'] & DomainHandlers<typeof hotFolderChannels> & ReturnType<typeof createStudioHandlers> & ReturnType<typeof createFileHandlers>;
  shutdown(graceful: boolean, timeoutMs: number): Promise<void>;
}

export interface CoreRuntimeDeps {
  options: CoreOptions;
  stateDir: string;
  env: Record<string, string | undefined>;
  settings: SettingsStore;
  client: ServiceClient;
  bus: EventBus;
  logger: Logger;
  grants: PathGrants;
}

/** Starts the engine (eager: now, recovering unfinished batches; lazy: on the first batch call) and what hangs off it. */
export async function startCoreRuntime({ options, stateDir, env, settings, client, bus, logger, grants }: CoreRuntimeDeps): Promise<CoreRuntime> {
  const engineMode: EngineMode = options.withEngine === false ? 'off' : options.withEngine === 'lazy' ? 'lazy' : 'eager';
  // Studio mode (docs/studio.md): hot folders claim photos in a shared PostgreSQL ledger. The engine exists first
  // (the ledger writes the journal's outcomes too), so until the ledger is open hot-folder items wait, unsent.
  const ledgerUrl = engineMode === 'eager' ? (options.ledgerUrl ?? settings.get().studioLedgerUrl) : null;
  let studio: StudioLedger | null = null;
  /** One lazily loaded keychain for the ledger's password: the instance that joins and the app's studio:* channels. */
  const ledgerKeychain = keychainLoader();
  const engine = createEngineSlot({
    mode: engineMode, stateDir, client, concurrency: () => settings.get().concurrency, bus, logger,
    resultCacheBytes: () => settings.get().resultCacheMb * 1024 * 1024,
    submitHooks: studioSubmitHooks(() => studio, ledgerUrl !== null), studio: ledgerUrl !== null,
  });
  // A concurrency change in Settings applies to the running engine at once.
  const unsubscribeConcurrency = settings.onChange((value) => engine.current()?.setConcurrency(value.concurrency));
  let hotFolders: HotFolderManager | undefined;
  let hotFolderHandlers = unavailableHandlers(hotFolderChannels, 'Hot folders run in the app, `batchroom ui` and `batchroom watch`.');
  // A host that stops while this starts (options.signal: Ctrl-C in `ui`) stops it between steps (start-steps.ts):
  // nothing is submitted before the last one, so no paid work leaves after the user asked to stop.
  const { signal } = options;
  try {
    beforeStartStep('journal', signal, logger);
    if (engineMode === 'eager') {
      // With a signal, recovery only: the engine submits nothing until everything else is up (the last step below),
      // so recovered pending items wait for the hot folders' start (at most its 1 s answer time). Without one (the
      // app, `watch`, `resume`), it schedules at once as before.
      const started = await engine.ensure({ recoverOnly: signal !== undefined, signal });
      if (ledgerUrl) {
        beforeStartStep('studio ledger', signal, logger);
        studio = await connectStudioLedger({
          url: ledgerUrl, instanceId: studioInstanceId(stateDir), version: APP_VERSION, env, keytar: ledgerKeychain, logger,
          allowPlaintext: settings.get().studioLedgerAllowPlaintext,
          local: journalLedger(started.journal), unsentLocally: localUnsentKeys(started.journal),
          knownLocally: localClaimKeys(started.journal), ...studioTimings(env), ...options.studio,
        });
      }
      // Hot folders feed the engine, so they exist wherever the engine runs from the start.
      const wired = createCoreHotFolders({
        engine: started.engine, journal: started.journal, client, stateDir, configStore: settingsConfigStore(settings), logger,
        emit: bus.emit as HotFolderEvents, ...(studio ? { ledger: studio } : {}),
      });
      hotFolders = wired.manager;
      hotFolderHandlers = wired.handlers;
      beforeStartStep('hot folders', signal, logger);
      // Arming scans every folder (up to 1 s here, the rest in the background): a stop meanwhile does not wait for it.
      if (options.startHotFolders) await untilAborted(hotFolders.start(), signal);
      beforeStartStep('submitting', signal, logger);
      await started.engine.start(); // idempotent: scheduling begins here, or began at recovery without a signal
    }
  } catch (error) {
    if (hotFolders) await closeHotFolders(hotFolders, HOT_FOLDERS_CLOSE_MS, logger);
    await engine.stop(false, 5000);
    await studio?.close().catch(() => undefined);
    unsubscribeConcurrency();
    throw error;
  }

  return {
    engine,
    hotFolders,
    handlers: {
      ...engine.handlers,
      ...hotFolderHandlers,
      ...createStudioHandlers({
        ledgerUrl: () => options.ledgerUrl ?? settings.get().studioLedgerUrl, env, keytar: ledgerKeychain, logger,
        allowPlaintext: () => settings.get().studioLedgerAllowPlaintext,
      }),
      ...createFileHandlers(options.host, grants, createThumbnailCache(join(stateDir, 'thumbnails')),
        createViewableOriginals(join(stateDir, 'previews'), () => engine.current()?.exiftool ?? null)),
    },
    async shutdown(graceful, timeoutMs) {
      unsubscribeConcurrency();
      if (hotFolders) await closeHotFolders(hotFolders, Math.min(timeoutMs, HOT_FOLDERS_CLOSE_MS), logger);
      await engine.stop(graceful, timeoutMs);
      // After the engine: its last accepted ids and outcomes reach the ledger before this instance's lease ends.
      await studio?.close().catch(() => undefined);
    },
  };
}

/** Each folder waits up to 2 s for what is under way (FilePipeline.settle); this leaves room for closing watchers. */
const HOT_FOLDERS_CLOSE_MS = 5_000;

/**
 * Closes the hot folders, waiting at most `boundMs`: the engine must stop and the journal close after it whatever a
 * folder is stuck on (a stalled share, a hung service), or the host's quit never ends. Whatever is left then writes
 * nothing the next start would miss (a batch it abandoned is not journalled, its photos are picked up again).
 */
async function closeHotFolders(hotFolders: HotFolderManager, boundMs: number, logger: Logger): Promise<void> {
  const closing = hotFolders.close().catch((error: unknown) => logger.warn('hot folders did not close cleanly', { error: String(error) }));
  if (!(await finishedWithin(closing, boundMs))) logger.warn('hot folders did not close in time: stopping the engine without them', { waitedMs: boundMs });
}

/** BATCHROOM_STUDIO_LEASE_MS: how long an instance's claims outlive its last heartbeat (default 30 s; tests shorten it). */
function studioTimings(env: Record<string, string | undefined>): { leaseMs?: number } {
  const leaseMs = Number(env.BATCHROOM_STUDIO_LEASE_MS);
  return Number.isFinite(leaseMs) && leaseMs >= 500 ? { leaseMs } : {};
}
