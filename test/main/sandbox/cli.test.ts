import { describe, expect, it } from 'vitest';
import { sandboxOptionsFromFlags } from '../../../main/cli/commands/sandbox';
import { fetchSandboxStats, spawnSandbox } from '../../helpers/sandbox';

describe('batchroom sandbox (separate process)', () => {
  it('prints exactly {url, apiKey} as its first line, serves the API, applies flags, and exits on SIGTERM', async () => {
    const spawned = await spawnSandbox(['--credits', '42', '--seed', '5', '--rate-5xx', '0']);
    try {
      expect(spawned.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(spawned.apiKey).toMatch(/^sk_test_/);
      const response = await fetch(`${spawned.url}/balance`, { headers: { authorization: `Bearer ${spawned.apiKey}` } });
      expect(((await response.json()) as { apiCredits: number }).apiCredits).toBe(42);
      const faults = (await (await fetch(`${spawned.url.replace('/api/v1', '')}/sandbox/faults`, { headers: { authorization: `Bearer ${spawned.apiKey}` } })).json()) as { seed: number };
      expect(faults.seed).toBe(5);
      expect((await fetchSandboxStats(spawned.url)).requestsByRoute['GET /api/v1/balance']).toBe(1);
    } finally {
      await spawned.kill('SIGTERM');
    }
    expect(spawned.process.exitCode).toBe(0);
  });
});

describe('sandboxOptionsFromFlags', () => {
  it('maps fault and limit flags onto options', () => {
    const options = sandboxOptionsFromFlags({
      port: '0', host: '127.0.0.1', latencyMs: '25', durationMs: '500', resultTtlMs: '1000', failureRate: '0.1', rate429: '0.05',
      rate5xx: '0.1', dropBeforeRate: '0.01', dropAfterRate: '0.02', malformedJsonRate: '0.01', slowDownloadRate: '0.5',
      slowDownloadBps: '1000', rateLimit: '50', maxConcurrent: '4', apiKey: 'sk_test_fromflag123',
    });
    expect(options).toMatchObject({
      port: 0, latencyMs: 25, executionDurationMs: 500, resultTtlMs: 1000, apiKey: 'sk_test_fromflag123',
      faults: {
        executionFailureRate: 0.1, rateLimitRate: 0.05, serverErrorRate: 0.1, dropBeforeRate: 0.01, dropAfterRate: 0.02,
        malformedJsonRate: 0.01, slowDownloadRate: 0.5, slowDownloadBytesPerSecond: 1000,
      },
      limits: { requestsPerSecond: 50, burst: 100, maxConcurrentExecutions: 4 },
    });
  });

  it('refuses non-numeric values and live keys', () => {
    expect(() => sandboxOptionsFromFlags({ port: 'abc', host: '127.0.0.1' })).toThrow(/--port/);
    expect(() => sandboxOptionsFromFlags({ port: '0', host: '127.0.0.1', apiKey: 'sk_live_x' })).toThrow(/sk_test_/);
  });
});
