import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Handlers } from '../../../shared/ipc/contract';
import { silentLogger } from '../log';
import { API_KEY_ENV, createFileKeyOrigins, createKeychainSecretStore, getKeyStatus, normalizeServiceUrl, resolveCredentials, type Credentials } from '../secrets';
import { AppError, CREDENTIAL_CODES } from '../../../shared/errors';
import { ensureStateDir, openSettingsStore, resolveStateDir } from '../settings';
import { failedConnection, forwardingClient, openConnection, type Connection } from './connection';
import { balanceReader, startBalanceRefresh } from './balance-refresh';
import { creditKindOf } from '../../../shared/service/credit-kind';
import { startAttention } from './attention';
import { createEventBus } from './event-bus';
import { createConsentGate, originOf } from './origin-consent';
import { createPathGrants, grantPathsIn } from './path-grants';
import { createItemWindowHandlers } from './item-window-handler';
import { createRecipeHandlers } from './recipe-handlers';
import { createRecipeStore } from '../recipes/recipe-store';
import { openBalanceReadings, recordingBalances } from '../reports/balance-readings';
import { createReportHandlers } from '../reports/handlers';
import { keychainLoader } from '../studio/keychain';
import { accountIdOf } from '../service/account-id';
import { createServiceHandlers } from './service-handlers';
import { createSettingsHandlers, serviceKeyValidator } from './settings-handlers';
import { createUpdateHandlers } from '../update/handlers';
import { APP_VERSION } from '../../../shared/app-info';
import { beforeStartStep } from './start-steps';
import type { CoreRuntime } from './core-runtime';
import type { EngineSlot } from './engine-slot';
import type { Core, CoreOptions } from './types';

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
  const startEmbedded = options.startEmbeddedService;
  const embedded = startEmbedded && (() => startEmbedded({ stateDir }));
  const open = (verdict: Credentials | AppError): Promise<Connection> =>
    verdict instanceof AppError ? Promise.resolve(failedConnection(options.serviceUrl ?? settings.get().serviceUrl, verdict)) : openConnection(verdict, logger, embedded);

  const verdict = await credentials();
  try {
    beforeStartStep('service', options.signal, logger);
  } catch (error) {
    unsubscribeSettings(); // nothing else is open yet
    throw error;
  }
  let connection = await open(verdict);
  const retired: Connection[] = [];
  // Every balance read is kept with its time and account: `batchroom report` holds a period's charges against it.
  const balanceReadings = openBalanceReadings(stateDir);
  const studioKeychain = keychainLoader();
  const client = recordingBalances(forwardingClient(() => connection.client), balanceReadings, undefined,
    (error) => logger.warn('a balance reading was not recorded', { error: String(error) }));
  const status = (): ServiceStatus => connection.status;
  const secrets = () => [connection, ...retired].map((c) => c.apiKey).filter((k): k is string => !!k);
  // The paths the renderer may name in files:* — only what the core itself hands out (results, inputs, output folders)
  // or the user picks; see path-grants.ts.
  const grants = createPathGrants();
  // Balance reads go through the engine once it runs (its budget checks and balance evidence see every one).
  const running: { slot?: EngineSlot } = {};
  const readBalance = balanceReader(client, () => running.slot?.current() ?? null);
  const serviceHandlers = grantingHandlers(createServiceHandlers({ client, status, emit: bus.emit, readBalance }), (result) => grantPathsIn(result, grants));
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

  // The heavy half (journal, engine, hot folders, previews) loads only now: see core-runtime.ts.
  let runtime: CoreRuntime;
  try {
    await options.runtimeAfter;
    const { startCoreRuntime } = await import('./core-runtime');
    runtime = await startCoreRuntime({ options, stateDir, env, settings, client, bus, logger, grants });
  } catch (error) {
    // runtimeAfter rejects, or options.signal aborts, when the host stops first (Ctrl-C while loading): the runtime
    // has closed what it opened (hot folders, engine, journal, lock) and submitted nothing; the connection goes last.
    unsubscribeSettings();
    // The reason the core did not start is what the host needs, not a failed close on the way out.
    try {
      await connection.close();
    } catch (closeError) {
      logger.warn('closing the service connection failed', { error: String(closeError) });
    }
    throw error;
  }
  const { engine, hotFolders } = runtime;
  running.slot = engine;

  const stopBalanceRefresh = startBalanceRefresh(bus, readBalance, logger);
  // `app:attention` when a batch or hot-folder run ends or pauses for the user (ended by bus.clear at shutdown).
  startAttention({
    bus, enabled: () => settings.get().notifyWhenDone, credits: () => creditKindOf(connection.status),
    hotFolderOf: async (id) => {
      const source = (await engine.ensure()).journal.getBatch(id)?.spec.source;
      return source?.kind === 'hotFolder' ? (source.hotFolderId ?? id) : null;
    },
  });

  const unsubscribeGrants = bus.onEvent((channel, payload) => {
    if (channel === 'files:opened') for (const path of (payload as { paths: string[] }).paths) grants.grant(path, 'file');
    else grantPathsIn(payload, grants);
  });
  const flagOrEnvKey = (): string => {
    const key = flags.apiKey?.trim() || env[API_KEY_ENV]?.trim();
    if (!key) throw new AppError('not_found', `No key from ${API_KEY_ENV} or --api-key is waiting for a confirmation.`);
    return key;
  };
  // Key moves, new origins and service changes wait for the host's own confirmation; the renderer is only told.
  const consent = createConsentGate(options.confirmOriginChange, (request) => bus.emit('consent:requested', request));
  const handlers: Handlers = {
    ...serviceHandlers,
    // Outside the path grants: a recipe (an imported one too) names image paths the renderer must not be able to read.
    ...createRecipeHandlers({
      store: createRecipeStore(stateDir), account: () => accountIdOf(client), workflow: (id) => client.getWorkflow(id),
      batchRecipe: async (id) => (await engine.ensure()).journal.getBatch(id)?.spec.recipe ?? null,
      batchSent: async (id) => {
        const spec = (await engine.ensure()).journal.getBatch(id)?.spec;
        return spec ? { workflowId: spec.workflowId, parameters: spec.parameters } : null;
      },
      chainLinked: async (paths) => {
        const { journal } = await engine.ensure();
        return paths.filter((path) => journal.chainLinkOf(path) !== null);
      },
    }),
    // Numbers only, no paths: outside the path grants.
    ...createReportHandlers({
      stateDir, readings: balanceReadings, account: () => accountIdOf(client),
      runningJournal: async () => (engine.current() ? (await engine.ensure()).journal : null),
      studioReport: async (request, readings, account) => {
        const url = options.ledgerUrl ?? settings.get().studioLedgerUrl;
        if (!url) throw new AppError('unavailable', 'No shared studio ledger is set: add its URL in Settings › Shared studio ledger.', { field: 'studioLedgerUrl' });
        const { readStudioJobReport } = await import('../studio/pg-report');
        return readStudioJobReport(url, { env, keytar: studioKeychain, logger, allowPlaintext: settings.get().studioLedgerAllowPlaintext }, request, readings, account);
      },
    }),
    // Auto-update (docs/updates.md): answered by the Electron app's controller once attached, else 'unavailable'.
    ...createUpdateHandlers({ slot: options.updates, settings: () => settings.get(), currentVersion: APP_VERSION }),
    ...grantingHandlers({
      ...createSettingsHandlers({
        settings,
        secretStore,
        validate: serviceKeyValidator(logger),
        keyStatus: () => getKeyStatus(credentialInputs()),
        reconnect,
        keyOriginChange: () => {
          const to = originOf(flags.serviceUrl ?? settings.get().serviceUrl);
          return { from: keyOrigins.originOf(flagOrEnvKey()) ?? to, to };
        },
        allowKeyOrigin: () => keyOrigins.bind(flagOrEnvKey(), new URL(normalizeServiceUrl(flags.serviceUrl ?? settings.get().serviceUrl)).origin),
        consent,
        ...(options.confirmOriginChange ? { consentPort: options.confirmOriginChange } : {}),
      }),
      ...runtime.handlers,
      // A page of a batch's items for the Queue and Review lists (its paths granted like batches:items').
      ...createItemWindowHandlers(async () => (await engine.ensure()).journal),
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
        unsubscribeGrants();
        stopBalanceRefresh();
        await runtime.shutdown(shutdownOptions.graceful ?? true, shutdownOptions.timeoutMs ?? 30_000);
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
