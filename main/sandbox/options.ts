import { availableParallelism } from 'node:os';

// Configuration of the sandbox: fault knobs, limits and their defaults, plus the environment-variable form of the
// fault knobs so a sandbox started by a script (or the app) can be made hostile without code changes.

/** Probabilities are 0..1 and drawn from the seeded fault stream (see faults.ts), so a run is reproducible. */
export interface FaultSettings {
  /** Added to every API and result response, in milliseconds. */
  latencyMs: number;
  /** Extra uniformly random latency 0..latencyJitterMs on top of latencyMs. */
  latencyJitterMs: number;
  /** Share of accepted executions that end `failed` (credits refunded). */
  executionFailureRate: number;
  /** Share of API requests answered 429 `rate_limited` before any processing. */
  rateLimitRate: number;
  /** Share of API and result requests answered 500/502/503 before any processing. */
  serverErrorRate: number;
  /** Share of requests whose connection is destroyed before the request is processed (nothing happened). */
  dropBeforeRate: number;
  /** Share of API requests processed in full (execute: accepted and charged) whose connection is then destroyed. */
  dropAfterRate: number;
  /** Share of successful API responses whose JSON body is sent truncated (after processing). */
  malformedJsonRate: number;
  /** Share of result downloads throttled to slowDownloadBytesPerSecond. */
  slowDownloadRate: number;
  slowDownloadBytesPerSecond: number;
}

export interface SandboxLimits {
  /** Largest request body accepted (413 `payload_too_large`). */
  maxBodyBytes: number;
  /** Largest single decoded input image (413 `image_too_large`). */
  maxImageBytes: number;
  /** Largest decoded pixel count; refuses decompression bombs before decoding (413 `image_too_large`). */
  maxImagePixels: number;
  /** Time limit for downloading one http(s) input image. */
  downloadTimeoutMs: number;
  /** Longest free-text value. */
  maxTextLength: number;
  /** Token bucket per key: sustained requests per second and burst size (429 `rate_limited`). */
  requestsPerSecond: number;
  burst: number;
  /** Executions per key that may be queued or running at once (429 `concurrency_limit`). */
  maxConcurrentExecutions: number;
  /** Result bytes kept in memory; beyond it the oldest results expire early (410). */
  maxStoredResultBytes: number;
  /**
   * Workflow edits run at once; the rest wait their turn (default: the number of cores). Accept-time decodes are not
   * limited: they are short, and an execute request should not wait behind other executions' edits.
   */
  imageConcurrency: number;
  /**
   * Fetch image URLs that resolve to private, loopback or link-local addresses (default false: only public
   * addresses, so the sandbox cannot be used to reach the local network). Tests serving images on loopback set it.
   */
  allowPrivateUrls: boolean;
}

export const DEFAULT_FAULTS: FaultSettings = {
  latencyMs: 0,
  latencyJitterMs: 0,
  executionFailureRate: 0,
  rateLimitRate: 0,
  serverErrorRate: 0,
  dropBeforeRate: 0,
  dropAfterRate: 0,
  malformedJsonRate: 0,
  slowDownloadRate: 0,
  slowDownloadBytesPerSecond: 64 * 1024,
};

export const DEFAULT_LIMITS: SandboxLimits = {
  maxBodyBytes: 40 * 1024 * 1024,
  maxImageBytes: 25 * 1024 * 1024,
  // A 96 MP medium-format or high-resolution camera photo is a real input; 100 MP still refuses decompression bombs.
  maxImagePixels: 100_000_000,
  downloadTimeoutMs: 10_000,
  maxTextLength: 200,
  requestsPerSecond: 200,
  burst: 400,
  maxConcurrentExecutions: 16,
  maxStoredResultBytes: 512 * 1024 * 1024,
  imageConcurrency: availableParallelism(),
  allowPrivateUrls: false,
};

export const DEFAULT_CREDITS = 1000;
export const DEFAULT_EXECUTION_DURATION_MS = 2000;
export const DEFAULT_RESULT_TTL_MS = 15 * 60 * 1000;

const RATE_KEYS = new Set<keyof FaultSettings>([
  'executionFailureRate', 'rateLimitRate', 'serverErrorRate', 'dropBeforeRate', 'dropAfterRate',
  'malformedJsonRate', 'slowDownloadRate',
]);

/** Merges a partial fault update, refusing values that would make the sandbox misbehave in unintended ways. */
export function mergeFaults(base: FaultSettings, update: Partial<FaultSettings>): FaultSettings {
  const next: FaultSettings = { ...base };
  for (const [name, value] of Object.entries(update) as [keyof FaultSettings, unknown][]) {
    if (!(name in DEFAULT_FAULTS)) throw new RangeError(`unknown fault setting "${name}"`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`fault setting "${name}" must be a finite number ≥ 0`);
    }
    if (RATE_KEYS.has(name) && value > 1) throw new RangeError(`fault setting "${name}" is a probability (0..1)`);
    next[name] = value;
  }
  if (next.slowDownloadBytesPerSecond < 1) next.slowDownloadBytesPerSecond = 1;
  return next;
}

/** Environment variable → fault setting. Flags and explicit options override these. */
export const FAULT_ENV: Record<string, keyof FaultSettings> = {
  BATCHROOM_SANDBOX_LATENCY_MS: 'latencyMs',
  BATCHROOM_SANDBOX_LATENCY_JITTER_MS: 'latencyJitterMs',
  BATCHROOM_SANDBOX_FAILURE_RATE: 'executionFailureRate',
  BATCHROOM_SANDBOX_429_RATE: 'rateLimitRate',
  BATCHROOM_SANDBOX_5XX_RATE: 'serverErrorRate',
  BATCHROOM_SANDBOX_DROP_BEFORE_RATE: 'dropBeforeRate',
  BATCHROOM_SANDBOX_DROP_AFTER_RATE: 'dropAfterRate',
  BATCHROOM_SANDBOX_MALFORMED_JSON_RATE: 'malformedJsonRate',
  BATCHROOM_SANDBOX_SLOW_DOWNLOAD_RATE: 'slowDownloadRate',
  BATCHROOM_SANDBOX_SLOW_DOWNLOAD_BPS: 'slowDownloadBytesPerSecond',
};

/** Reads the fault knobs from the environment; a value that is not a number is an error, not silently ignored. */
export function faultsFromEnv(env: Record<string, string | undefined>): Partial<FaultSettings> {
  const out: Partial<FaultSettings> = {};
  for (const [variable, name] of Object.entries(FAULT_ENV)) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new RangeError(`${variable} must be a number, got "${raw}"`);
    out[name] = value;
  }
  return out;
}

/** BATCHROOM_SANDBOX_SEED, when set, makes every fault decision reproducible across runs. */
export function seedFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.BATCHROOM_SANDBOX_SEED;
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new RangeError(`BATCHROOM_SANDBOX_SEED must be an integer, got "${raw}"`);
  return value;
}
