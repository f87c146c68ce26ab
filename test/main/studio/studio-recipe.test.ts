import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import type { BatchRecord, ItemRecord } from '../../../main/core/journal/types';
import type { AcceptedBatch, Ledger } from '../../../main/core/studio/ledger';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { studioSubmitHooks } from '../../../main/core/studio/submit-hooks';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// Issue 32 #1: the studio ledger's claim row says which recipe paid the photo (studio migration 4).

let server: TestPostgres;
const opened: StudioLedger[] = [];
const FP = 'f'.repeat(64);

beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);

afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
  await server?.stop();
});

async function open(id: string): Promise<StudioLedger> {
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs: 60_000, heartbeatMs: 3_600_000 });
  opened.push(ledger);
  return ledger;
}

async function sql(text: string, params: unknown[] = []) {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

const request = (n: number) => ({
  key: `rk-${n}`, folderKey: 'recipes', contentHash: `h-${n}`, workflowId: 'wf', parametersHash: 'ph', relPath: `p${n}.jpg`, sourcePath: `/s/p${n}.jpg`, cost: 1,
});

describe('the recipe in the studio ledger', () => {
  it('set with the execution id from the batch that paid; an accept without a batch leaves it as it was', async () => {
    const a = await open('recipe-a');
    const r = request(1);
    expect(await a.claim(r)).toEqual({ kind: 'claimed' });
    await a.submitting(r.key);
    await a.accepted(r.key, 'exec-r1', 1, { id: 'batch-1', job: 'J', client: 'C', recipeFingerprint: FP });
    expect(await sql('SELECT recipe_fingerprint, batch_id FROM batchroom_claims WHERE key = $1', [r.key])).toEqual([{ recipe_fingerprint: FP, batch_id: 'batch-1' }]);
    // An accept without a batch (a takeover following the execution) keeps what the claim says.
    const other = request(2);
    await a.claim(other);
    await a.submitting(other.key);
    await a.accepted(other.key, 'exec-r2', 1);
    expect(await sql('SELECT recipe_fingerprint FROM batchroom_claims WHERE key = $1', [other.key])).toEqual([{ recipe_fingerprint: null }]);
  });

  it('the engine\'s submit hook hands the batch\'s recipe fingerprint to the ledger', async () => {
    const seen: (AcceptedBatch | undefined)[] = [];
    const ledger = { shared: true, accepted: async (_k: string, _e: string, _c: number, batch?: AcceptedBatch) => { seen.push(batch); } } as unknown as Ledger;
    const hooks = studioSubmitHooks(() => ledger, true);
    const spec = BatchSpecSchema.parse({
      workflowId: 'wf', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' }, source: { kind: 'hotFolder', hotFolderId: 'f1' },
      recipe: { name: 'Client A', fingerprint: FP },
    });
    const batch = { id: 'b1', spec, creditCost: 1 } as unknown as BatchRecord;
    await hooks.accepted({ id: 'i1', contentHash: 'h' } as unknown as ItemRecord, batch, 'exec-1');
    expect(seen).toEqual([{ id: 'b1', job: null, client: null, recipeFingerprint: FP }]);
  });
});
