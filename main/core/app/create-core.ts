import { hotFolderChannels } from '../../../shared/ipc/channels/hotfolders';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Handlers } from '../../../shared/ipc/contract';
import { batchChannels } from '../../../shared/ipc/channels/batches';
import { createBatchHandlers, createEngine, type Engine } from '../engine';
import { openJournal } from '../journal';
import { silentLogger, type Logger } from '../log';
import type { ServiceClient } from '../service/types';
import { createKeychainSecretStore, getKeyStatus, resolveCredentials } from '../secrets';
import { ensureStateDir, openSettingsStore, resolveStateDir } from '../settings';
import { failedConnection, forwardingClient, openConnection, type Connection } from './connection';
import { createEventBus, type EventBus } from './event-bus';
import { acquireEngineLock } from './state-lock';
import { createFileHandlers } from './file-handlers';
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
  const credentialInputs = () => ({ settings: settings.get(), env, secretStore, flags });

  const connect = async (): Promise<Connection> => {
    try {
      return await openConnection(await resolveCredentials(credentialInputs()), logger);
    } catch (error) {
      if (!(error instanceof Error) || !['MissingApiKeyError', 'KeychainUnavailableError'].includes(error.name)) throw error;
      logger.warn('no usable service', { reason: error.message });
      return failedConnection(options.serviceUrl ?? settings.get().serviceUrl, error);
    }
  };
  let connection = await connect();
  const retired: Connection[] = [];
  const client = forwardingClient(() => connection.client);
  const status = (): ServiceStatus => connection.status;
  const reconnect = async () => {
    const next = await connect();
    // An old sandbox may still own executions in flight; it is closed at shutdown, not now.
    retired.push(connection);
    connection = next;
    bus.emit('service:changed', next.status);
  };

  let engine: Awaited<ReturnType<typeof startEngine>> | null = null;
  try {
    if (options.withEngine !== false) engine = await startEngine(stateDir, client, settings.get().concurrency, bus, logger);
  } catch (error) {
    unsubscribeSettings();
    await connection.close();
    throw error;
  }

  const handlers: Handlers = {
    ...createServiceHandlers({ client, status, emit: bus.emit }),
    ...createSettingsHandlers({
      settings,
      secretStore,
      validate: serviceKeyValidator(logger),
      keyStatus: () => getKeyStatus(credentialInputs()),
      reconnect,
    }),
    ...(engine ? createBatchHandlers(engine.engine) : unavailableHandlers(batchChannels, 'Batches are not available in this command.')),
    ...unavailableHandlers(hotFolderChannels, 'Hot folders are not available yet in this build.'),
    ...createFileHandlers(options.host),
  };

  let shuttingDown: Promise<void> | undefined;
  return {
    handlers,
    onEvent: bus.onEvent,
    emit: bus.emit,
    secrets: () => [connection, ...retired].map((c) => c.apiKey).filter((k): k is string => !!k),
    hasArmedHotFolders: () => false,
    busyCount: () => (engine?.engine.busy() ? 1 : 0),
    shutdown(shutdownOptions = {}) {
      shuttingDown ??= (async () => {
        unsubscribeSettings();
        if (engine) await engine.stop(shutdownOptions.graceful ?? true, shutdownOptions.timeoutMs ?? 30_000);
        for (const c of [connection, ...retired]) await c.close().catch(() => undefined);
        bus.clear();
      })();
      return shuttingDown;
    },
  };
}

/**
 * The journal and the engine, behind the state dir's engine lock. Recovery runs first: executions the journal knows
 * are polled again and unsaved results fetched — never resubmitted.
 */
async function startEngine(stateDir: string, client: ServiceClient, concurrency: number, bus: EventBus, logger: Logger) {
  const release = acquireEngineLock(stateDir);
  try {
    const journal = openJournal(stateDir);
    const engine: Engine = createEngine({ journal, client, logger, concurrency });
    const unsubscribe = engine.onProgress((event) => bus.emit('batches:progress', event));
    await engine.start();
    return {
      engine,
      async stop(graceful: boolean, timeoutMs: number) {
        await withTimeout(engine.stop({ graceful }), timeoutMs, () => logger.warn('engine did not stop in time'));
        unsubscribe();
        journal.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Waits for `work` at most `ms`; a shutdown must end even when a download hangs. */
async function withTimeout(work: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
  });
  await Promise.race([work.then(() => undefined, () => undefined), expired]);
  clearTimeout(timer);
}
