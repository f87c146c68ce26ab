import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, setRemoteOutage, startTestSandbox, tinyImageDataUrl } from '../../helpers/sandbox';
import { until } from '../../helpers/until';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** One raw request on a fresh connection: the status, or the socket error code (ECONNREFUSED during an outage). */
function probe(port: number, path = '/sandbox/stats'): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end();
  });
}

describe('outage simulation', () => {
  it('answers, refuses connections on its port for the given time while executions progress, then listens again', async () => {
    sandbox = await startTestSandbox({ executionDurationMs: 300 });
    const api = sandboxApi(sandbox);
    const accepted = await api('/workflows/color-grade/execute', { body: { images: { photo: await tinyImageDataUrl() }, texts: { look: 'warm' } } });
    expect(accepted.status).toBe(202);
    await setRemoteOutage(sandbox.url, sandbox.apiKey, 800);
    // The listening socket closes right after the answer has been sent.
    await until(async () => (await probe(sandbox!.port)) === 'ECONNREFUSED', 'the port to refuse connections', { timeoutMs: 2_000 });
    expect(await probe(sandbox.port)).toBe('ECONNREFUSED');
    await expect(api('/balance')).rejects.toThrow();
    // The execution is finished by the time the port answers again: its state survived the outage.
    await until(async () => (await probe(sandbox!.port)) === 200, 'the port to answer again', { timeoutMs: 5_000 });
    const execution = await api(`/executions/${accepted.body.executionId}`);
    expect(execution.body.status).toBe('completed');
    expect((await api('/balance')).status).toBe(200);
  });

  it('finishes a request it had already received before refusing connections', async () => {
    sandbox = await startTestSandbox({ latencyMs: 300 });
    const api = sandboxApi(sandbox);
    const slow = api('/balance');
    await new Promise((resolve) => setTimeout(resolve, 50));
    sandbox.setOutage(1_000);
    expect(await probe(sandbox.port)).toBe('ECONNREFUSED');
    const answered = await slow;
    expect(answered.status).toBe(200);
  });

  it('refuses a nonsense duration with 422', async () => {
    sandbox = await startTestSandbox();
    for (const ms of [0, -5, 1.5, 'soon', 10 * 60_000 + 1]) {
      const response = await fetch(`${sandbox.url.replace(/\/api\/v1$/, '')}/sandbox/outage`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.apiKey}` }, body: JSON.stringify({ ms }),
      });
      expect(response.status, String(ms)).toBe(422);
    }
    expect(await probe(sandbox.port)).toBe(200);
  });
});
