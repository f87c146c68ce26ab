import type { EmitEvent, EventChannelName, EventPayload, Handlers } from '../../../shared/ipc/contract';
import type { Logger } from '../log';
import type { ConfirmOriginChange } from './origin-consent';
import type { SecretStore } from '../secrets';
import type { SettingsBackendFactory } from '../settings';
import type { HotFolderManager } from '../watch';
import type { UpdateSlot } from '../update/handlers';

/**
 * What a host (Electron, the browser host, the CLI) lends the core: native abilities that differ per host. A
 * missing ability makes the matching `files:*` channel answer `unsupported`, and the UI offers another way.
 */
export interface HostCapabilities {
  host: 'electron' | 'browser' | 'cli';
  platform: string;
  pickFiles?(title?: string): Promise<string[]>;
  pickFolder?(title?: string): Promise<string | null>;
  reveal?(path: string): Promise<void>;
  openFolder?(path: string): Promise<void>;
  startDrag?(path: string): void;
  /** Registers a local file the core vouches for and returns the URL under which the renderer may load it. */
  previewUrlFor(path: string): string;
}

/** A service a host started for sandbox mode (the built-in sandbox): its URL, its test key, and how to stop it. */
export interface EmbeddedService {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export interface CoreOptions {
  host: HostCapabilities;
  /** --state-dir / BATCHROOM_STATE_DIR / the platform default. */
  stateDir?: string;
  env?: Record<string, string | undefined>;
  /** --service-url and --api-key flags (CLI). */
  serviceUrl?: string;
  apiKey?: string;
  logger?: Logger;
  /** Start armed hot folders (the app and `watch --all`); the CLI's one-shot commands pass false. */
  startHotFolders?: boolean;
  /**
   * true (default): open the journal and start the engine (recovering unfinished batches) with the core. 'lazy': on
   * the first batches/items call (`run`, so usage errors never wait for the engine). false: never — commands that
   * only read the catalog must not resume batches as a side effect nor contend for the state dir's engine lock.
   */
  withEngine?: boolean | 'lazy';
  /** Electron passes its electron-store backend; plain Node uses conf. */
  createSettingsBackend?: SettingsBackendFactory;
  /** Tests pass an in-memory store; hosts use the OS keychain. */
  secretStore?: SecretStore;
  /**
   * Starts the service used when there is no key. The hosts (CLI, browser host, Electron) pass the built-in sandbox
   * (main/sandbox/embedded.ts): the product core never depends on its test double. Without it, no key means no service.
   * Given the state dir, where the sandbox keeps its account so the balance persists across starts.
   */
  startEmbeddedService?: (context: { stateDir: string }) => Promise<EmbeddedService>;
  /** `watch --ledger-url`: the studio ledger to claim hot-folder photos in (instead of settings.studioLedgerUrl). */
  ledgerUrl?: string;
  /**
   * Called once the service connection is open — before the journal, the engine and hot folders — with the channels
   * that need nothing else (workflows, balance, service status), so a host can answer the catalog meanwhile.
   */
  onServiceReady?: (service: ServiceCore) => void;
  /**
   * When the rest (journal, engine, hot folders: core-runtime.ts) may start loading, after onServiceReady: the
   * browser host lets the page's first catalog go first, since both run on one thread. Default: at once. If it
   * rejects (the host stopped first), createCore closes the connection and rejects with that reason, the journal unopened.
   */
  runtimeAfter?: Promise<unknown>;
  /**
   * Stops the start when the host stops first (`ui`: Ctrl-C while loading). Checked before each step (the service,
   * the journal, recovery, the studio ledger, arming hot folders, the engine's first submission: start-steps.ts);
   * once aborted, createCore closes what it had opened (hot folders, engine, journal, lock, then the connection) and
   * rejects with the signal's reason — nothing armed, nothing submitted. Unused once the core is up.
   */
  signal?: AbortSignal;
  /**
   * How this host asks the person at the machine before a key or the photos go to a new origin (key:reuse,
   * key:allowOrigin, settings:update serviceUrl): Electron a native dialog, the browser host a one-time code on its
   * terminal. Absent: every such change is refused (origin-consent.ts).
   */
  confirmOriginChange?: ConfirmOriginChange;
  /** Studio lease timings (tests shorten them). */
  studio?: { leaseMs?: number; heartbeatMs?: number; retryMs?: number };
  /** The Electron app's update controller, attached once it runs (core/update/handlers.ts); absent: 'unavailable'. */
  updates?: UpdateSlot;
}

/** The service channels of a core still starting: the very handlers the finished core has for them. */
export interface ServiceCore {
  readonly handlers: Pick<Handlers, 'workflows:list' | 'workflows:get' | 'balance:get' | 'service:status'>;
  secrets(): readonly string[];
}

/** Everything a host needs from the core: the contract's handlers, its events, and lifecycle. */
export interface Core {
  readonly handlers: Handlers;
  /** Subscribe to every contract event (hosts forward them to renderers). */
  onEvent(listener: <K extends EventChannelName>(channel: K, payload: EventPayload<K>) => void): () => void;
  readonly emit: EmitEvent;
  /** The hot-folder manager where the engine runs from the start (the app, `ui`, `watch`, `resume`); else undefined. */
  readonly hotFolders?: HotFolderManager;
  /** Secrets to scrub from anything leaving the process (the API key in use). */
  secrets(): readonly string[];
  hasArmedHotFolders(): boolean;
  /** Executions in flight or results downloading: a graceful quit waits for these. */
  busyCount(): number;
  shutdown(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}
