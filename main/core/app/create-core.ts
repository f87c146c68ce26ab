import { join } from 'node:path';
import { hotFolderChannels } from '../../../shared/ipc/channels/hotfolders';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Handlers } from '../../../shared/ipc/contract';
import { silentLogger } from '../log';
import { createCoreHotFolders, journalLedger, settingsConfigStore } from '../watch/adapters';
import { APP_VERSION } from '../../../shared/app-info';
import { connectStudioLedger, studioInstanceId } from '../studio/connect';
import { createStudioHandlers } from '../studio/handlers';
import { keychainLoader } from '../studio/keychain';
import type { StudioLedger } from '../studio/studio-ledger';
import { studioSubmitHooks } from '../studio/submit-hooks';
import type { HotFolderEvents, HotFolderManager } from '../watch';
import { API_KEY_ENV, createFileKeyOrigins, createKeychainSecretStore, getKeyStatus, normalizeServiceUrl, resolveCredentials, type Credentials } from '../secrets';
import { AppError, CREDENTIAL_CODES } from '../../../shared/errors';
import { ensureStateDir, openSettingsStore, resolveStateDir } from '../settings';
import { failedConnection, forwardingClient, openConnection, type Connection } from './connection';
import { startBalanceRefresh } from './balance-refresh';
import { createEngineSlot, type EngineMode } from './engine-slot';
import { createEventBus } from './event-bus';
import { createFileHandlers } from './file-handlers';
import { createThumbnailCache } from '../images/thumbnails';
import { createViewableOriginals } from '../images/viewable';
import { createPathGrants, grantPathsIn } from './path-grants';
import { createServiceHandlers } from './service-handlers';
import { createSettingsHandlers, serviceKeyValidator } from './settings-handlers';
import type { Core, CoreOptions } from './types';
import { unavailableHandlers } from './unavailable';

/**
 * The composition root every host uses (Electron, the browser host, the CLI): settings and the state dir, the
 * credentials and the service they lead to (a live service, or the embedded sandbox with its own sk_test_ key), the
 * journal and engine, hot folders, all domain handlers in one `Handlers` map, one event fan-out, and shutdown.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const logger = (options.logger ?? silentLogger).child('core');
  const env = options.env ?? process.env;
  const stateDir = ensureStateDir(resolveStateDir({ stateDir: options.stateDir, env }));
  const bus = createEventBus(logger);
  const settings = openSettingsStore({ stateDir, ...(options.createSettingsBackend ? { createBackend: options.createSettingsBackend } : {}) });
  for (const warning of settings.warnings) logger.warn('settings repaired', { kind: warning.kind, message: warning.message });
  const unsubscribeSettings = settings.onChange((value) => bus.emit('settings:changed', value));
  const secretStore = options.secretStore ?? createKeychainSecretStore();
  const flags = { serviceUrl: options.serviceUrl, apiKey: options.apiKey };
  const keyOrigins = createFileKeyOrigins(stateDir);
  const credentialInputs = () => ({ settings: settings.get(), env, secretStore, flags, keyOrigins });

  /** The credentials' verdict, or the reason there is no usable service (then every service call says why). */
  const credentials = async (): Promise<Credentials | AppError> => {
    try {
      return await resolveCredentials(credentialInputs());
    } catch (error) {
      if (!(error instanceof AppError) || !CREDENTIAL_CODES.has(error.code)) throw error;
      logger.warn('no usable service', { reason: error.message });
      return error;
    }
  };
  const open = (verdict: Credentials | AppError): Promise<Connection> =>
    verdict instanceof AppError ? Promise.resolve(failedConnection(options.serviceUrl ?? settings.get().serviceUrl, verdict)) : openConnection(verdict, logger, options.startEmbeddedService);

  let connection = await open(await credentials());
  const retired: Connection[] = [];
  const client = forwardingClient(() => connection.client);
  const status = (): ServiceStatus => connection.status;
  const secrets = () => [connection, ...retired].map((c) => c.apiKey).filter((k): k is string => !!k);
  // The paths the renderer may name in files:* — only what the core itself hands out (results, inputs, output folders)
  // or the user picks; see path-grants.ts.
  const grants = createPathGrants();
  const serviceHandlers = grantingHandlers(createServiceHandlers({ client, status, emit: bus.emit }), (result) => grantPathsIn(result, grants));
  // The catalog needs only the connection: a host may answer it while the journal and the engine start.
  options.onServiceReady?.({ handlers: serviceHandlers, secrets });
  const reconnect = async () => {
    const verdict = await credentials();
    if (!(verdict instanceof AppError) && verdict.mode === 'sandbox' && connection.status.mode === 'sandbox') {
      // Still the sandbox (only the reason changed): keep the running one and its executions.
      connection = { ...connection, status: { ...connection.status, sandboxReason: verdict.reason, message: verdict.message } };
    } else {
      const previous = connection;
      connection = await open(verdict);
      // A sandbox may still own executions in flight: then it is closed at shutdown, not now.
      if (engine.current()?.busy()) retired.push(previous);
      else await previous.close().catch(() => undefined);
    }
    bus.emit('service:changed', connection.status);
  };

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
    unsubscribeSettings();
    unsubscribeConcurrency();
    await connection.close();
    throw error;
  }

  const stopBalanceRefresh = startBalanceRefresh(bus, client, logger);

  const unsubscribeGrants = bus.onEvent((channel, payload) => {
    if (channel === 'files:opened') for (const path of (payload as { paths: string[] }).paths) grants.grant(path, 'file');
    else grantPathsIn(payload, grants);
  });
  const handlers: Handlers = {
    ...serviceHandlers,
    ...grantingHandlers({
      ...createSettingsHandlers({
        settings,
        secretStore,
        validate: serviceKeyValidator(logger),
        keyStatus: () => getKeyStatus(credentialInputs()),
        reconnect,
        allowKeyOrigin: () => {
          const key = flags.apiKey?.trim() || env[API_KEY_ENV]?.trim();
          if (!key) throw new AppError('not_found', `No key from ${API_KEY_ENV} or --api-key is waiting for a confirmation.`);
          keyOrigins.bind(key, new URL(normalizeServiceUrl(flags.serviceUrl ?? settings.get().serviceUrl)).origin);
        },
      }),
      ...engine.handlers,
      ...hotFolderHandlers,
      ...createStudioHandlers({ ledgerUrl: () => options.ledgerUrl ?? settings.get().studioLedgerUrl, env, keytar: ledgerKeychain, logger }),
      ...createFileHandlers(options.host, grants, createThumbnailCache(join(stateDir, 'thumbnails')),
        createViewableOriginals(join(stateDir, 'previews'), () => engine.current()?.exiftool ?? null)),
    }, (result) => grantPathsIn(result, grants)),
  };

  let shuttingDown: Promise<void> | undefined;
  return {
    handlers,
    onEvent: bus.onEvent,
    emit: bus.emit,
    secrets,
    hotFolders,
    hasArmedHotFolders: () => hotFolders?.hasArmed() ?? false,
    busyCount: () => (engine.current()?.busy() ? 1 : 0),
    shutdown(shutdownOptions = {}) {
      shuttingDown ??= (async () => {
        unsubscribeSettings();
        unsubscribeConcurrency();
        unsubscribeGrants();
        stopBalanceRefresh();
        await hotFolders?.close().catch((error: unknown) => logger.warn('hot folders did not close cleanly', { error: String(error) }));
        await engine.stop(shutdownOptions.graceful ?? true, shutdownOptions.timeoutMs ?? 30_000);
        // After the engine: its last accepted ids and outcomes reach the ledger before this instance's lease ends.
        await studio?.close().catch(() => undefined);
        for (const c of [connection, ...retired]) await c.close().catch(() => undefined);
        bus.clear();
      })();
      return shuttingDown;
    },
  };
}

/** Every handler's result passes `observe` on its way out (the path grants learn what the renderer was shown). */
function grantingHandlers<H extends object>(handlers: H, observe: (result: unknown) => void): H {
  const wrapped: Record<string, (args: never) => unknown> = {};
  for (const [channel, handler] of Object.entries(handlers as Record<string, (args: never) => unknown>)) {
    wrapped[channel] = async (args) => {
      const result = await handler(args);
      observe(result);
      return result;
    };
  }
  return wrapped as unknown as H;
}

/** BATCHROOM_STUDIO_LEASE_MS: how long an instance's claims outlive its last heartbeat (default 30 s; tests shorten it). */
function studioTimings(env: Record<string, string | undefined>): { leaseMs?: number } {
  const leaseMs = Number(env.BATCHROOM_STUDIO_LEASE_MS);
  return Number.isFinite(leaseMs) && leaseMs >= 500 ? { leaseMs } : {};
}
