import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../main/core/service/client';
import { ServiceError } from '../../../main/core/service/errors';
import { DEFAULT_FAULTS, startSandbox } from '../../../main/sandbox/index';
import { REQUEST, WORKFLOW } from './fixtures';
import { recordingLogger } from './helpers';
import { drop, hang, json, startStub, type StubHandler } from './stub-server';

// The key may travel only in the Authorization header. A hostile service that echoes it back in every error body,
// header and result must not get it into any message, error detail or log line of a run where everything fails.

const KEY = 'sk_live_HostileEchoKey9f8e7d6c5b4a';
const SANDBOX_KEY = 'sk_test_SandboxEchoKey1a2b3c4d5e';

type Stub = Awaited<ReturnType<typeof startStub>>;
let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});

const echo = (status: number): StubHandler => (req, res) =>
  json(res, status, {
    error: { code: 'echo', message: `you sent ${req.headers.authorization} (${KEY.slice(8)})`, field: `images.${KEY}`, key: KEY },
    detail: [{ loc: ['body', KEY], msg: `raw ${KEY}` }],
  }, { 'X-Echo': String(req.headers.authorization) });

function everything(error: unknown): string {
  if (!(error instanceof ServiceError)) return String(error);
  return [error.message, JSON.stringify(error.detail), String(error.field), String(error.stack)].join('\n');
}

async function failingRun(client: ReturnType<typeof createServiceClient>): Promise<string[]> {
  const outputs: string[] = [];
  const calls: (() => Promise<unknown>)[] = [
    () => client.listWorkflows(), () => client.getWorkflow(KEY), () => client.getExecution('x'), () => client.getBalance(),
    () => client.execute(WORKFLOW, REQUEST), () => client.downloadResult(`/results/${KEY}.png`),
    () => client.execute(WORKFLOW, { ...REQUEST, texts: { look: KEY } }),
  ];
  for (const call of calls) {
    try {
      outputs.push(JSON.stringify(await call()));
    } catch (error) {
      outputs.push(everything(error));
    }
  }
  return outputs;
}

describe('the key never leaks', () => {
  it('from a hostile service that echoes it in every failure', async () => {
    const handlers = [400, 401, 402, 404, 409, 413, 415, 422, 429, 500, 503].map(echo);
    stub.reply(...handlers, drop, hang, echo(500));
    const { logger, lines } = recordingLogger();
    const client = createServiceClient({ baseUrl: stub.origin, apiKey: KEY, timeoutMs: 200, logger, retry: { attempts: 2, baseDelayMs: 1, totalMs: 5_000 } });
    const outputs = await failingRun(client);
    expect(outputs.join('\n')).toContain('sk_live_…'); // the masked form is what remains where the service echoed it
    const everythingSeen = [...outputs, ...lines()].join('\n');
    expect(everythingSeen).not.toContain(KEY);
    expect(everythingSeen).not.toContain(KEY.slice(8));
    expect(lines().length).toBeGreaterThan(5);
    expect(stub.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('from a failing run against the sandbox with every fault switched on', async () => {
    const sandbox = await startSandbox({ seed: 7, useEnv: false, apiKey: SANDBOX_KEY, faults: { ...DEFAULT_FAULTS, dropBeforeRate: 0.3, dropAfterRate: 0.3, serverErrorRate: 0.3, rateLimitRate: 0.3, malformedJsonRate: 0.3 } });
    try {
      const { logger, lines } = recordingLogger();
      const client = createServiceClient({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY, timeoutMs: 1_000, logger, retry: { attempts: 2, baseDelayMs: 1, totalMs: 5_000 } });
      const outputs = [...(await failingRun(client)), ...(await failingRun(client))];
      const everythingSeen = [...outputs, ...lines()].join('\n');
      expect(everythingSeen).not.toContain(SANDBOX_KEY);
      expect(everythingSeen).not.toContain(SANDBOX_KEY.slice(8));
      expect(lines().some((l) => l.includes('"level":"warn"'))).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
