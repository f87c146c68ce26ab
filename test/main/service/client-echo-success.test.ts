import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKFLOW_WIRE, testClient } from './fixtures';
import { ok, startStub } from './stub-server';

// Issue 30 item 7: a service that echoes the key in a *successful* answer — a workflow name, a description, a result
// URL, a label — must not get it past the client: these strings go on to journal.db, the CLI's --json and XMP.

const KEY = 'sk_live_EchoedInNames7f6e5d4c3b2a1';
const OTHER = 'sk_test_SomeoneElsesKey0a1b2c3d4e5';

type Stub = Awaited<ReturnType<typeof startStub>>;
let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});

describe('what the service says is redacted before anything reads it', () => {
  it('masks the key in use (whole or without its prefix) and any sk_live_/sk_test_ token in every success body', async () => {
    const named = { ...WORKFLOW_WIRE, name: `Warm ${KEY}`, description: `made for ${KEY.slice(8)} and ${OTHER}`, tags: [KEY] };
    stub.reply(
      ok([named]),
      ok(named),
      ok({ id: 'ex-1', status: 'completed', results: [{ url: `${stub.origin}/r/${KEY}.png`, label: `look ${KEY}` }], [KEY]: KEY }),
      ok({ apiCredits: 5, note: KEY }),
    );
    const client = testClient(stub.origin, {}, KEY);
    const seen = JSON.stringify([
      await client.listWorkflows(), await client.getWorkflow('warm-look'), await client.getExecution('ex-1'), await client.getBalance(),
    ]);
    expect(seen).toContain('Warm sk_live_…'); // the masked form stands where the service put the key
    expect(seen).not.toContain(KEY);
    expect(seen).not.toContain(KEY.slice(8));
    expect(seen).not.toContain(OTHER);
  });
});
