import { hotFolderChannels } from '../../../shared/ipc/channels/hotfolders';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Handlers } from '../../../shared/ipc/contract';
import { createBatchHandlers, createEngine } from '../engine';
import { openJournal } from '../journal';
import { silentLogger } from '../log';
import { createKeychainSecretStore, getKeyStatus, resolveCredentials } from '../secrets';
import { ensureStateDir, openSettingsStore, resolveStateDir } from '../settings';
import { failedConnection, forwardingClient, openConnection, type Connection } from './connection';
import { createEventBus } from './event-bus';
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

  const journal = openJournal(stateDir);
  const engine = createEngine({ journal, client, logger, concurrency: settings.get().concurrency });
  const unsubscribeEngine = engine.onProgress((event) => bus.emit('batches:progress', event));
  // Recovery first: executions known to the journal are polled again and unsaved results fetched, never resubmitted.
  await engine.start();

  const handlers: Handlers = {
    ...createServiceHandlers({ client, status, emit: bus.emit }),
    ...createSettingsHandlers({
      settings,
      secretStore,
      validate: serviceKeyValidator(logger),
      keyStatus: () => getKeyStatus(credentialInputs()),
      reconnect,
    }),
    ...createBatchHandlers(engine),
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
    busyCount: () => (engine.busy() ? 1 : 0),
    shutdown(shutdownOptions = {}) {
      shuttingDown ??= (async () => {
        unsubscribeSettings();
        await withTimeout(engine.stop({ graceful: shutdownOptions.graceful ?? true }), shutdownOptions.timeoutMs ?? 30_000, () =>
          logger.warn('engine did not stop in time'));
        unsubscribeEngine();
        journal.close();
        for (const c of [connection, ...retired]) await c.close().catch(() => undefined);
        bus.clear();
      })();
      return shuttingDown;
    },
  };
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
