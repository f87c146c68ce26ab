import type { Command } from 'commander';
import { pathToFileURL } from 'node:url';
import type { Contract, InvokeChannelName } from '../../shared/ipc/contract';
import type { ArgsOf, ResultOf } from '../../shared/ipc/contract-kit';
import type { ServiceStatus } from '../../shared/ipc/channels/service';
import type { SandboxReason } from '../../shared/settings/key-status';
import type { ItemOutcomeEvent } from '../../shared/engine/model';
import type { Core, HostCapabilities } from '../core/app/types';
import { createLogger, type LogRecord } from '../core/log';
import { knownSecrets, rememberSecret } from './secrets-seen';
import { createOutcomeBuffer } from './outcome-buffer';
import { traceStart } from '../core/start-trace';
import type { startEmbeddedSandbox as StartEmbeddedSandbox } from '../sandbox/embedded';

// Loaded when a command needs it, not at start: `batchroom --help` should not wait for sharp and the sandbox.
const startEmbeddedSandbox: typeof StartEmbeddedSandbox = async (...args) => (await import('../sandbox/embedded')).startEmbeddedSandbox(...args);

/** The program-wide flags every command sees (declared once in main.ts). */
export interface GlobalOptions {
  serviceUrl?: string;
  apiKey?: string;
  stateDir?: string;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export const API_KEY_FLAG_WARNING =
  'batchroom: warning: --api-key is visible to other users in the process list; prefer `batchroom key set` or BATCHROOM_API_KEY.';

export { knownSecrets, rememberSecret } from './secrets-seen';

/** What the terminal lends the core: nothing native; previews are plain file URLs (never shown anyway). */
export function cliHostCapabilities(): HostCapabilities {
  return { host: 'cli', platform: process.platform, previewUrlFor: (path) => pathToFileURL(path).href };
}

/** Human lines go to stdout unless --json or --quiet; notices go to stderr so NDJSON on stdout stays clean. */
export interface Output {
  readonly json: boolean;
  readonly quiet: boolean;
  line(text?: string): void;
  /** A line that --quiet keeps (final summaries). */
  result(text: string): void;
  record(value: unknown): void;
  notice(text: string): void;
}

export function createOutput(options: GlobalOptions): Output {
  const json = options.json === true;
  const quiet = options.quiet === true;
  return {
    json,
    quiet,
    line: (text = '') => {
      if (!json && !quiet) process.stdout.write(`${text}\n`);
    },
    result: (text) => {
      if (!json) process.stdout.write(`${text}\n`);
    },
    record: (value) => process.stdout.write(`${JSON.stringify(value)}\n`),
    notice: (text) => {
      if (!quiet) process.stderr.write(`${text}\n`);
    },
  };
}

export type CallChannel = <K extends InvokeChannelName>(channel: K, args: ArgsOf<Contract, K>) => Promise<ResultOf<Contract, K>>;

export interface CliSession {
  readonly core: Core;
  readonly out: Output;
  readonly options: GlobalOptions;
  /** Calls a contract channel through the same dispatcher as the other hosts (zod-checked, redacted), unwrapped. */
  readonly call: CallChannel;
  /** The service this session talks to (live, or the embedded sandbox), as of its start. */
  readonly status: ServiceStatus;
  /**
   * Every item outcome of this session (`batches:outcome`) from now on, and first those that came while nobody
   * listened (replayed once, to this listener): an item settled while its batch was being created (a duplicate, an
   * unreadable file) is not missed. A later listener does not get what an earlier one was given.
   */
  onOutcome(listener: (outcome: ItemOutcomeEvent) => void): () => void;
  close(options?: { graceful?: boolean }): Promise<void>;
}

/**
 * Starts the core for one command: settings and credentials from the state dir, flags and environment; the
 * embedded sandbox when there is no key and no service URL (said on stderr, so a newcomer knows why results look
 * simulated). Debug logs go to stderr with --debug.
 */
export interface SessionNeeds {
  startHotFolders?: boolean;
  /** false for commands that only read the catalog (no journal, no engine); 'lazy' for `run`. */
  withEngine?: boolean | 'lazy';
  /** `watch --ledger-url`: claim hot-folder photos in this studio ledger. */
  ledgerUrl?: string;
}

const MAX_BUFFERED_OUTCOMES = 50_000;

export async function openSession(command: Command, extra: SessionNeeds = {}): Promise<CliSession> {
  const options = globalOptions(command);
  const out = createOutput(options);
  rememberSecret(options.apiKey);
  rememberSecret(process.env.BATCHROOM_API_KEY);
  if (options.apiKey) out.notice(API_KEY_FLAG_WARNING);
  const logger = createLogger({
    minLevel: options.debug ? 'debug' : 'error',
    secrets: knownSecrets,
    sink: (record: LogRecord) => {
      if (options.debug) process.stderr.write(`[${record.level}] ${record.scope}: ${record.message}${record.fields ? ` ${JSON.stringify(record.fields)}` : ''}\n`);
    },
  });
  // Loaded on demand so `--help`, `--version` and usage errors answer without starting the whole core (or zod, which
  // the contract's schemas need).
  const [{ createCore }, { contract }, { createInvokeDispatcher, unwrap }] = await Promise.all([
    import('../core/app/create-core'), import('../../shared/ipc/contract'), import('../../shared/ipc/dispatch'),
  ]);
  const core = await createCore({
    host: cliHostCapabilities(),
    stateDir: options.stateDir,
    env: process.env,
    serviceUrl: options.serviceUrl,
    apiKey: options.apiKey,
    logger,
    startHotFolders: extra.startHotFolders ?? false,
    withEngine: extra.withEngine ?? true,
    startEmbeddedService: startEmbeddedSandbox,
    ...(extra.ledgerUrl ? { ledgerUrl: extra.ledgerUrl } : {}),
  });
  traceStart('core-ready');
  for (const secret of core.secrets()) rememberSecret(secret);
  const outcomes = createOutcomeBuffer(MAX_BUFFERED_OUTCOMES);
  core.onEvent((channel, payload) => {
    if (channel === 'batches:outcome') outcomes.push(payload as ItemOutcomeEvent);
  });
  const dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: () => [...knownSecrets(), ...core.secrets()] });
  const call = (async (channel: string, args: unknown) => unwrap(await dispatch(channel, args))) as CallChannel;
  const status = await call('service:status', {});
  if (status.mode === 'sandbox') out.notice(sandboxNotice(status.sandboxReason));
  let closed = false;
  return {
    core,
    out,
    options,
    call,
    status,
    onOutcome: (listener) => outcomes.subscribe(listener),
    async close(closeOptions = {}) {
      if (closed) return;
      closed = true;
      await core.shutdown({ graceful: closeOptions.graceful ?? true, timeoutMs: 10_000 });
    },
  };
}

/** Runs a command body with a session that is always closed, and sets the exit code it returns. */
export async function withSession(
  command: Command,
  body: (session: CliSession) => Promise<number | void>,
  extra: SessionNeeds = {},
): Promise<void> {
  const session = await openSession(command, extra);
  try {
    const code = await body(session);
    if (typeof code === 'number') process.exitCode = code;
  } finally {
    await session.close();
  }
}

/** One short line (the credential layer's message also explains keychains at length; the CLI keeps it brief). */
export function sandboxNotice(reason: SandboxReason | undefined): string {
  const why =
    reason === 'sandbox-mode-always'
      ? 'sandbox mode is "always"'
      : reason === 'keychain-unavailable'
        ? 'no API key (and no OS keychain; BATCHROOM_API_KEY works without one)'
        : 'no API key is set (`batchroom key set` or BATCHROOM_API_KEY)';
  return `batchroom: using the built-in sandbox, ${why}: simulated results, paid with free test credits.`;
}
