import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { claim, markAccepted, markSubmitting, recordOutcome } from '../../../main/core/studio/pg-claims';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { registerInstance, takeOver } from '../../../main/core/studio/pg-instances';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { claimRequest, ledgerPool } from '../../helpers/studio-claims';

// Review probe (pre-existing, seen under lease lapses: studio-lapse stress, 10 of 40 photos): instance a's own item
// for a photo ended `claimed-elsewhere` → `cancelled` (b owned the photo and sent it). b then stalls past its lease
// and a takes b's execution over ('follow': the row is a's now). a's outcome step records its cancelled item's
// outcome (outcome-step.ts record) — and batchroom_record_outcome, the row being a's, overwrites `accepted` (paid,
// result not yet saved) with `cancelled`: a DONE state, credits_charged 0. The paid result is never saved by anyone
// and the folder's budget no longer counts the credit.

let server: TestPostgres | null = null;
let pool: pg.Pool | null = null;
afterEach(async () => {
  await pool?.end().catch(() => undefined);
  pool = null;
  await server?.stop();
  server = null;
});

const request = claimRequest;

describe('an outcome of a cancelled item over a claim its instance took over', () => {
  it('does not turn a paid, accepted photo into cancelled', async () => {
    server = await startTestPostgres({ quiet: true });
    pool = ledgerPool(server, 2);
    const client = await pool.connect();
    try { await migrateLedger(client); } finally { client.release(); }
    for (const id of ['a', 'b']) await registerInstance(pool, { id, host: id, pid: 1, version: 'test', label: null }, 3_600_000);
    // b owns the photo and sent it: the service accepted it (paid).
    expect(await claim(pool, 'b', request('x'))).toEqual({ kind: 'claimed' });
    await markSubmitting(pool, 'b', 'x');
    expect(await markAccepted(pool, 'b', 'x', 'exe_1', 1)).toBe(true);
    // b stalls past its lease; a follows b's execution.
    await pool.query(`UPDATE batchroom_instances SET lease_until = now() - interval '1 second' WHERE id = 'b'`);
    const taken = await takeOver(pool, 'a', [{ folderKey: 'shoot', workflowId: 'wf', parametersHash: 'ph' }]);
    expect(taken.map((t) => [t.key, t.action])).toEqual([['x', 'follow']]);
    // a's own earlier item for x (claimed-elsewhere → cancelled) has its outcome recorded now.
    await recordOutcome(pool, 'a', 'shoot', {
      key: 'x', contentHash: 'x', workflowId: 'wf', parametersHash: 'ph', sourcePath: '/s/x.jpg', outcome: 'cancelled',
      outputs: [], executionId: null, itemId: 'a-item', hotFolderId: null, creditsCharged: 0,
    });
    const { rows } = await pool.query(`SELECT state, execution_id, credits_charged::float AS charged FROM batchroom_claims WHERE key = 'x'`);
    expect(rows).toEqual([{ state: 'accepted', execution_id: 'exe_1', charged: 1 }]);
  }, 120_000);
});
