import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox, SandboxOptions } from '../../../main/sandbox/index';
import { fetchSandboxStats, sandboxApi, setRemoteFaults, startTestSandbox, tinyImageDataUrl, waitForExecution } from '../../helpers/sandbox';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: SandboxOptions = {}) {
  sandbox = await startTestSandbox({ executionDurationMs: 40, ...options });
  return { sandbox, api: sandboxApi(sandbox) };
}
const admin = (s: RunningSandbox, path: string) => `${s.url.replace(/\/api\/v1$/, '')}${path}`;
const keyed = (s: RunningSandbox, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${s.apiKey}` } });
const colorGrade = async () => ({ images: { photo: await tinyImageDataUrl() }, texts: { look: 'warm' } });

describe('fault settings', () => {
  it('are readable and changeable at run time over HTTP, and refuse nonsense with 422', async () => {
    const { sandbox } = await start({ seed: 42 });
    const initial = (await (await fetch(admin(sandbox, '/sandbox/faults'), keyed(sandbox))).json()) as { seed: number; faults: Record<string, number> };
    expect(initial.seed).toBe(42);
    expect(initial.faults.serverErrorRate).toBe(0);
    await setRemoteFaults(sandbox.url, sandbox.apiKey, { serverErrorRate: 0.25, latencyMs: 5 });
    const after = (await (await fetch(admin(sandbox, '/sandbox/faults'), keyed(sandbox))).json()) as { faults: Record<string, number> };
    expect(after.faults).toMatchObject({ serverErrorRate: 0.25, latencyMs: 5 });
    for (const bad of [{ serverErrorRate: 2 }, { latencyMs: -1 }, { noSuchFault: 1 }, { dropAfterRate: 'often' }]) {
      const response = await fetch(admin(sandbox, '/sandbox/faults'), keyed(sandbox, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(bad) }));
      expect(response.status, JSON.stringify(bad)).toBe(422);
    }
    expect(() => sandbox.setFaults({ rateLimitRate: 1.5 })).toThrow(RangeError);
  });

  it('add latency to every API response', async () => {
    const { api } = await start({ latencyMs: 120 });
    const started = performance.now();
    expect((await api('/balance')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it('fail executions with a reason and refund their credits', async () => {
    const { sandbox, api } = await start({ credits: 10, faults: { executionFailureRate: 1 } });
    const { status, body } = await api('/workflows/color-grade/execute', { body: await colorGrade() });
    expect(status).toBe(202);
    const done = await waitForExecution(sandbox, body.executionId);
    expect(done).toMatchObject({ status: 'failed', errorCode: 'execution_failed', creditsCharged: 1, creditsRefunded: 1, resultUrls: [] });
    expect(done.error).toMatch(/failed/);
    expect(done.progress).toBeLessThan(100);
    expect((await api('/balance')).body.apiCredits).toBe(10);
    expect(sandbox.stats()).toMatchObject({ creditsCharged: 1, creditsRefunded: 1, executionsByStatus: { failed: 1 } });
  });

  it('answer 429 with Retry-After before processing', async () => {
    const { sandbox, api } = await start({ faults: { rateLimitRate: 1 } });
    const response = await api('/workflows/color-grade/execute', { body: await colorGrade() });
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe('rate_limited');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(sandbox.stats().executionsCreated).toBe(0);
  });

  it('answer 500, 502 and 503 (503 with Retry-After) before processing', async () => {
    const { sandbox, api } = await start({ faults: { serverErrorRate: 1 } });
    const seen = new Map<number, string>();
    for (let i = 0; i < 30; i++) {
      const response = await api('/workflows');
      seen.set(response.status, response.body.error.code);
      if (response.status === 503) expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(Object.fromEntries(seen)).toEqual({ 500: 'internal_error', 502: 'bad_gateway', 503: 'service_unavailable' });
    const execute = await api('/workflows/color-grade/execute', { body: await colorGrade() });
    expect(execute.status).toBeGreaterThanOrEqual(500);
    expect(sandbox.stats().executionsCreated).toBe(0);
  });

  it('drop the connection before processing: nothing is created or charged', async () => {
    const { sandbox, api } = await start({ credits: 10, faults: { dropBeforeRate: 1 } });
    await expect(api('/workflows/color-grade/execute', { body: await colorGrade() })).rejects.toThrow();
    sandbox.setFaults({ dropBeforeRate: 0 });
    expect(sandbox.stats().executionsCreated).toBe(0);
    expect((await api('/balance')).body.apiCredits).toBe(10);
    expect(sandbox.stats().faultsInjected.dropBefore).toBe(1);
  });

  it('drop the connection after processing: the execution exists and was charged', async () => {
    const { sandbox, api } = await start({ credits: 10, faults: { dropAfterRate: 1 } });
    await expect(api('/workflows/color-grade/execute', { body: await colorGrade() })).rejects.toThrow();
    sandbox.setFaults({ dropAfterRate: 0 });
    expect(sandbox.stats().executionsCreated).toBe(1);
    expect((await api('/balance')).body.apiCredits).toBe(9);
  });

  it('send truncated JSON on success responses', async () => {
    const { api } = await start({ faults: { malformedJsonRate: 1 } });
    const response = await api('/workflows');
    expect(response.status).toBe(200);
    expect(typeof response.body).toBe('string');
    expect(() => JSON.parse(response.body as unknown as string)).toThrow();
    // Error responses stay well-formed: the fault models a broken success body.
    const missing = await api('/workflows/nope');
    expect(missing.body.error.code).toBe('workflow_not_found');
  });

  it('throttle result downloads without corrupting them', async () => {
    const { sandbox, api } = await start({ faults: { slowDownloadRate: 1, slowDownloadBytesPerSecond: 400_000 } });
    const { body } = await api('/workflows/color-grade/execute', { body: await colorGrade() });
    const done = await waitForExecution(sandbox, body.executionId);
    const response = await fetch(done.resultUrls[0]);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(Number(response.headers.get('content-length')));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(sandbox.stats().faultsInjected.slowDownload).toBe(1);
  });

  it('are reproducible with a seed and differ between seeds', async () => {
    const run = async (seed: number) => {
      const s = await startTestSandbox({ seed, faults: { serverErrorRate: 0.5 } });
      try {
        const api = sandboxApi(s);
        const statuses = [];
        for (let i = 0; i < 24; i++) statuses.push((await api('/balance')).status >= 500 ? 'x' : '.');
        return statuses.join('');
      } finally {
        await s.close();
      }
    };
    const first = await run(7);
    expect(await run(7)).toBe(first);
    expect(first).toMatch(/x/);
    expect(first).toMatch(/\./);
    expect(await run(8)).not.toBe(first);
  });

  it('are read from BATCHROOM_SANDBOX_* environment variables unless disabled', async () => {
    process.env.BATCHROOM_SANDBOX_429_RATE = '1';
    process.env.BATCHROOM_SANDBOX_SEED = '99';
    try {
      sandbox = await startTestSandbox({ useEnv: true, seed: undefined });
      const faults = (await (await fetch(admin(sandbox, '/sandbox/faults'), keyed(sandbox))).json()) as { seed: number; faults: { rateLimitRate: number } };
      expect(faults).toMatchObject({ seed: 99, faults: { rateLimitRate: 1 } });
      expect((await sandboxApi(sandbox)('/balance')).status).toBe(429);
    } finally {
      delete process.env.BATCHROOM_SANDBOX_429_RATE;
      delete process.env.BATCHROOM_SANDBOX_SEED;
    }
  });
});

describe('GET /sandbox/stats', () => {
  it('counts executions (total, per masked key, per status), credits and requests per route', async () => {
    const { sandbox, api } = await start({ credits: 20 });
    const other = sandboxApi(sandbox, 'sk_test_secondkey42');
    const body = await colorGrade();
    const a = await api('/workflows/color-grade/execute', { body });
    await api('/workflows/color-grade/execute', { body });
    await other('/workflows/color-grade/execute', { body });
    await waitForExecution(sandbox, a.body.executionId);
    await api('/workflows/nope');
    const stats = await fetchSandboxStats(sandbox.url);
    expect(stats.executionsCreated).toBe(3);
    expect(stats.executionsByKey).toEqual({ [`sk_test_…${sandbox.apiKey.slice(-4)}`]: 2, 'sk_test_…ey42': 1 });
    expect(stats.creditsCharged).toBe(3);
    expect(stats.requestsByRoute['POST /api/v1/workflows/:id/execute']).toBe(3);
    expect(stats.requestsByRoute['GET /api/v1/workflows/:id']).toBe(1);
    expect(stats.responsesByStatus['202']).toBe(3);
    expect(stats.responsesByStatus['404']).toBe(1);
    expect(JSON.stringify(stats)).not.toContain(sandbox.apiKey);
    expect(JSON.stringify(stats)).not.toContain('sk_test_secondkey42');
    expect(sandbox.stats().executionsCreated).toBe(3);
    expect(stats.eventLoopDelay).toEqual({ p50Ms: expect.any(Number), p99Ms: expect.any(Number), maxMs: expect.any(Number) });
    const reset = await fetch(admin(sandbox, '/sandbox/stats/reset-event-loop'), { method: 'POST' });
    expect(await reset.json()).toEqual({ ok: true });
  });
});
