import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startStub } from '../service/stub-server';
import { cliEnv, runCli } from './run-cli';

// `batchroom workflows` against a service whose pagination goes round in circles: the CLI lists what it got and
// prints the warning on stderr (stdout stays one JSON array under --json).

let dir: string;
let stub: Awaited<ReturnType<typeof startStub>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-pages-'));
  stub = await startStub();
  stub.reply((req, res) => {
    if (!req.url.startsWith('/api/v1/workflows')) return json(res, 404, { error: { code: 'not_found', message: 'no' } });
    json(res, 200, { items: [{ id: 'only-one', name: 'Only one', cost: 2 }], hasMore: true });
  });
});

afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom workflows with a partial catalog', { timeout: 60_000 }, () => {
  it('prints the listed workflows and warns that the catalog may be incomplete', async () => {
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: `sk_test_${'a'.repeat(32)}` });
    const [text, asJson] = await Promise.all([
      runCli(['--service-url', stub.origin, 'workflows'], env),
      runCli(['--service-url', stub.origin, 'workflows', '--json'], env),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/only-one/);
    expect(text.stderr).toMatch(/batchroom: warning: The catalog may be incomplete: 1 workflow listed, but the service says more exist/);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual([expect.objectContaining({ id: 'only-one' })]);
    expect(asJson.stderr).toMatch(/may be incomplete/);
  });
});
