import type { Command } from 'commander';
import { maskKey } from '../../../shared/redact';
import type { FaultSettings, SandboxOptions } from '../../sandbox/index';

// `batchroom sandbox`: the built-in sandbox service as its own process (for crash tests, benchmarks and trying the
// app without a key). Runs until SIGINT/SIGTERM. With --json the first stdout line is exactly
// {"url":"http://127.0.0.1:PORT/api/v1","apiKey":"sk_test_..."} — scripts read it to find the sandbox.

interface SandboxFlags {
  port: string;
  host: string;
  latencyMs?: string;
  credits?: string;
  seed?: string;
  durationMs?: string;
  resultTtlMs?: string;
  apiKey?: string;
  failureRate?: string;
  rate429?: string;
  rate5xx?: string;
  dropBeforeRate?: string;
  dropAfterRate?: string;
  malformedJsonRate?: string;
  slowDownloadRate?: string;
  slowDownloadBps?: string;
  latencyJitterMs?: string;
  rateLimit?: string;
  maxConcurrent?: string;
  allowPrivateUrls?: boolean;
  json?: boolean;
}

const FAULT_FLAGS: [keyof SandboxFlags, keyof FaultSettings][] = [
  ['failureRate', 'executionFailureRate'],
  ['rate429', 'rateLimitRate'],
  ['rate5xx', 'serverErrorRate'],
  ['dropBeforeRate', 'dropBeforeRate'],
  ['dropAfterRate', 'dropAfterRate'],
  ['malformedJsonRate', 'malformedJsonRate'],
  ['slowDownloadRate', 'slowDownloadRate'],
  ['slowDownloadBps', 'slowDownloadBytesPerSecond'],
  ['latencyJitterMs', 'latencyJitterMs'],
];

function number(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${flag} must be a number ≥ 0, got "${raw}"`);
  return value;
}

/** Flags → startSandbox options. Flags override BATCHROOM_SANDBOX_* environment variables. */
export function sandboxOptionsFromFlags(flags: SandboxFlags): SandboxOptions {
  const faults: Partial<FaultSettings> = {};
  for (const [flag, setting] of FAULT_FLAGS) {
    const value = number(flag, flags[flag] as string | undefined);
    if (value !== undefined) faults[setting] = value;
  }
  const options: SandboxOptions = { port: number('port', flags.port) ?? 0, host: flags.host, faults, limits: {} };
  const assign = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  assign('latencyMs', number('latency-ms', flags.latencyMs));
  assign('credits', number('credits', flags.credits));
  assign('seed', number('seed', flags.seed));
  assign('executionDurationMs', number('duration-ms', flags.durationMs));
  assign('resultTtlMs', number('result-ttl-ms', flags.resultTtlMs));
  if (flags.apiKey !== undefined) {
    if (!flags.apiKey.startsWith('sk_test_')) throw new Error('--sandbox-key must start with sk_test_');
    options.apiKey = flags.apiKey;
  }
  const rate = number('rate-limit', flags.rateLimit);
  if (rate !== undefined) options.limits = { ...options.limits, requestsPerSecond: rate, burst: rate * 2 };
  const concurrent = number('max-concurrent', flags.maxConcurrent);
  if (concurrent !== undefined) options.limits = { ...options.limits, maxConcurrentExecutions: concurrent };
  if (flags.allowPrivateUrls) options.limits = { ...options.limits, allowPrivateUrls: true };
  return options;
}

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('run the built-in sandbox service (the v1 API with real image edits and fault injection) until interrupted')
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--latency-ms <n>', 'added latency per response')
    .option('--latency-jitter-ms <n>', 'extra random latency up to this many ms')
    .option('--credits <n>', 'starting credit balance of every key')
    .option('--seed <n>', 'seed that makes fault injection reproducible')
    .option('--duration-ms <n>', 'how long each execution takes')
    .option('--result-ttl-ms <n>', 'how long result URLs stay valid')
    .option('--sandbox-key <key>', 'the sk_test_ key to report (any sk_test_ key is accepted)')
    .option('--failure-rate <p>', 'share of executions that fail (0..1)')
    .option('--rate-429 <p>', 'share of API requests answered 429')
    .option('--rate-5xx <p>', 'share of requests answered 500/502/503')
    .option('--drop-before-rate <p>', 'share of connections dropped before processing')
    .option('--drop-after-rate <p>', 'share of connections dropped after processing')
    .option('--malformed-json-rate <p>', 'share of successful responses with truncated JSON')
    .option('--slow-download-rate <p>', 'share of result downloads throttled')
    .option('--slow-download-bps <n>', 'throttled download speed in bytes per second')
    .option('--rate-limit <n>', 'requests per second per key before 429')
    .option('--max-concurrent <n>', 'executions per key queued or running at once before 429')
    .option('--allow-private-urls', 'also fetch image URLs on loopback and the local network (tests only: SSRF otherwise)')
    .action(async (flags: SandboxFlags & { sandboxKey?: string }, command: Command) => {
      const json = Boolean(command.optsWithGlobals<{ json?: boolean }>().json);
      const { startSandbox } = await import('../../sandbox/index');
      const sandbox = await startSandbox(sandboxOptionsFromFlags({ ...flags, apiKey: flags.sandboxKey }));
      if (json) {
        process.stdout.write(`${JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey })}\n`);
      } else {
        // Human mode never prints a key: any sk_test_ key works, so the user can pick their own.
        process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
        process.stdout.write('Use any key of the form sk_test_<8+ letters or digits>, e.g. sk_test_trythesandbox\n');
        process.stderr.write(`Press Ctrl+C to stop. Stats: ${sandbox.url.replace(/\/api\/v1$/, '')}/sandbox/stats (keys shown masked, e.g. ${maskKey(sandbox.apiKey)})\n`);
      }
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sandbox.close();
    });
}
