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
import { studioSubmitHooks } from '../studio/submit-hooks';
import { createThumbnailCache } from '../images/thumbnails';
import { createViewableOriginals } from '../images/viewable';
import type { HotFolderEvents, HotFolderManager } from '../watch';
import { createCoreHotFolders, journalLedger, settingsConfigStore } from '../watch/adapters';
import { createEngineSlot, type EngineMode, type EngineSlot } from './engine-slot';
import type { EventBus } from './event-bus';
import { createFileHandlers } from './file-handlers';
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
    submitHooks: studioSubmitHooks(() => studio, ledgerUrl !== null), studio: ledgerUrl !== null,
  });
  // A concurrency change in Settings applies to the running engine at once.
  const unsubscribeConcurrency = settings.onChange((value) => engine.current()?.setConcurrency(value.concurrency));
  let hotFolders: HotFolderManager | undefined;
  let hotFolderHandlers = unavailableHandlers(hotFolderChannels, 'Hot folders run in the app, `batchroom ui` and `batchroom watch`.');
  try {
    if (engineMode === 'eager') {
      const started = await engine.ensure();
      if (ledgerUrl) {
        studio = await connectStudioLedger({
          url: ledgerUrl, instanceId: studioInstanceId(stateDir), version: APP_VERSION, env, keytar: ledgerKeychain, logger,
          local: journalLedger(started.journal), ...studioTimings(env), ...options.studio,
        });
      }
      // Hot folders feed the engine, so they exist wherever the engine runs from the start.
      const wired = createCoreHotFolders({
        engine: started.engine, journal: started.journal, client, stateDir, configStore: settingsConfigStore(settings), logger,
        emit: bus.emit as HotFolderEvents, ...(studio ? { ledger: studio } : {}),
      });
      hotFolders = wired.manager;
      hotFolderHandlers = wired.handlers;
      if (options.startHotFolders) await hotFolders.start();
    }
  } catch (error) {
    await hotFolders?.close().catch(() => undefined);
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
      ...createStudioHandlers({ ledgerUrl: () => options.ledgerUrl ?? settings.get().studioLedgerUrl, env, keytar: ledgerKeychain, logger }),
      ...createFileHandlers(options.host, grants, createThumbnailCache(join(stateDir, 'thumbnails')),
        createViewableOriginals(join(stateDir, 'previews'), () => engine.current()?.exiftool ?? null)),
    },
    async shutdown(graceful, timeoutMs) {
      unsubscribeConcurrency();
      await hotFolders?.close().catch((error: unknown) => logger.warn('hot folders did not close cleanly', { error: String(error) }));
      await engine.stop(graceful, timeoutMs);
      // After the engine: its last accepted ids and outcomes reach the ledger before this instance's lease ends.
      await studio?.close().catch(() => undefined);
    },
  };
}

/** BATCHROOM_STUDIO_LEASE_MS: how long an instance's claims outlive its last heartbeat (default 30 s; tests shorten it). */
function studioTimings(env: Record<string, string | undefined>): { leaseMs?: number } {
  const leaseMs = Number(env.BATCHROOM_STUDIO_LEASE_MS);
  return Number.isFinite(leaseMs) && leaseMs >= 500 ? { leaseMs } : {};
}
