import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { SandboxCore } from './core';
import { randomSeed } from './faults';
import {
  DEFAULT_CREDITS, DEFAULT_EXECUTION_DURATION_MS, DEFAULT_FAULTS, DEFAULT_LIMITS, DEFAULT_RESULT_TTL_MS,
  faultsFromEnv, mergeFaults, seedFromEnv, type FaultSettings, type SandboxLimits,
} from './options';
import { createOutageControl } from './outage';
import { imageWorkFromEnv, type ImageWork } from './reused-images';
import { createRequestHandler } from './server';
import type { SandboxStats } from './stats';

// The built-in sandbox: a real HTTP server on loopback implementing the v1 API with real image edits and fault
// injection. Started in-process by the app and tests, or as its own process by `batchroom sandbox`.

export type { FaultSettings, SandboxLimits } from './options';
export type { SandboxStats } from './stats';
export { DEFAULT_FAULTS, DEFAULT_LIMITS } from './options';
export { WORKFLOWS } from './workflows';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the sandbox is a loopback service. */
  host?: string;
  /** Starting API-credit balance of every key. */
  credits?: number;
  /**
   * Keep every key's balance in this SQLite file, shared by every sandbox started on it (the embedded sandbox's
   * `<state dir>/sandbox-account.db`); a key the file has not seen starts at `credits`. Default: in memory.
   */
  creditsFile?: string;
  /** Seed for fault decisions (default: BATCHROOM_SANDBOX_SEED, else random). */
  seed?: number;
  executionDurationMs?: number;
  resultTtlMs?: number;
  /** Shorthand for faults.latencyMs. */
  latencyMs?: number;
  faults?: Partial<FaultSettings>;
  limits?: Partial<SandboxLimits>;
  /** The key reported as `apiKey` (default: a random sk_test_ key). Every sk_test_ key is accepted regardless. */
  apiKey?: string;
  /**
   * 'reused' (benches only): each distinct input size decoded and edited once, its bytes served for every later one
   * (reused-images.ts; env BATCHROOM_SANDBOX_IMAGE_WORK). Default 'full': every photo decoded and edited.
   */
  imageWork?: ImageWork;
  /** Read fault knobs and seed from BATCHROOM_SANDBOX_* environment variables (default true). */
  useEnv?: boolean;
}

export interface RunningSandbox {
  /** http://127.0.0.1:PORT/api/v1 */
  url: string;
  apiKey: string;
  port: number;
  stats(): SandboxStats;
  setFaults(faults: Partial<FaultSettings>): void;
  /**
   * Simulates an outage: requests already received are answered, idle connections close, then connections are
   * refused for `ms` while executions keep progressing; afterwards it listens again on the same port.
   */
  setOutage(ms: number): void;
  /** Expires every result stored now, as their time running out would: their URLs answer 410 Gone from here on. */
  expireResults(): number;
  close(): Promise<void>;
}

export function generateTestKey(): string {
  return `sk_test_${randomBytes(18).toString('base64url')}`;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const env = options.useEnv === false ? {} : process.env;
  let faults = mergeFaults(DEFAULT_FAULTS, faultsFromEnv(env));
  faults = mergeFaults(faults, options.faults ?? {});
  if (options.latencyMs !== undefined) faults = mergeFaults(faults, { latencyMs: options.latencyMs });
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer({ keepAliveTimeout: 10_000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const core = new SandboxCore({
    origin,
    credits: options.credits ?? DEFAULT_CREDITS,
    ...(options.creditsFile ? { creditsFile: options.creditsFile } : {}),
    seed: options.seed ?? seedFromEnv(env) ?? randomSeed(),
    executionDurationMs: options.executionDurationMs ?? DEFAULT_EXECUTION_DURATION_MS,
    resultTtlMs: options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS,
    faults,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    imageWork: options.imageWork ?? imageWorkFromEnv(env) ?? 'full',
  });
  core.outage = createOutageControl(server, port, host);
  server.on('request', createRequestHandler(core));
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/api/v1`,
    apiKey: options.apiKey ?? generateTestKey(),
    port,
    stats: () => core.stats.snapshot(),
    setFaults: (update) => {
      core.setFaults(update);
    },
    setOutage: (ms) => {
      core.outage!.begin(ms);
    },
    expireResults: () => core.results.expireAll(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        core.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
