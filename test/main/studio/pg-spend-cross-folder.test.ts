import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, markAccepted, markSubmitting, recordOutcome, setFolderBudget } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { readStatus } from '../../../main/core/studio/pg-status';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// The ledger key is the photo's content + workflow + parameters, not its folder: the same photo copied into two
// studio folders is one claim row. An abandoned claim made in folder A and taken again from folder B moves the row
// to B (batchroom_claim: folder_key = p_folder), but its reservation is subtracted from B's spend, not A's.

let server: TestPostgres;
let admin: pg.Client;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await admin.connect();
  await migrateLedger(admin);
  pool = ledgerPool(server, 2);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await admin?.end();
  await server?.stop();
});

describe('an abandoned claim taken again from another studio folder', () => {
  it('moves its reservation with it: each folder\'s committed credits are what it spent', async () => {
    await registerInstance(pool, { id: 'dead', host: 'dead', pid: 1, version: 't', label: null }, 600_000);
    await registerInstance(pool, { id: 'live', host: 'live', pid: 2, version: 't', label: null }, 600_000);
    await setFolderBudget(pool, 'client-a', 10);
    await setFolderBudget(pool, 'client-b', 1);
    const req = (folderKey: string, key = 'same-photo') => ({ key, folderKey, contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: 'x.jpg', sourcePath: `/${folderKey}/x.jpg`, cost: 1 });
    expect((await claim(pool, 'dead', req('client-a'))).kind).toBe('claimed');
    await admin.query(`UPDATE batchroom_instances SET lease_until = now() - interval '1 second' WHERE id = 'dead'`); // kill -9
    expect((await claim(pool, 'live', req('client-b'))).kind).toBe('claimed');
    await markSubmitting(pool, 'live', 'same-photo');
    await markAccepted(pool, 'live', 'same-photo', 'exe-1', 1);
    await recordOutcome(pool, 'live', 'client-b', { key: 'same-photo', contentHash: 'same-photo', workflowId: 'wf', parametersHash: 'p',
      sourcePath: '/client-b/x.jpg', outcome: 'saved', outputs: [], executionId: 'exe-1', itemId: null, hotFolderId: null, creditsCharged: 1 });
    const folders = Object.fromEntries((await readStatus(pool, 'test')).folders.map((f) => [f.folderKey, f.creditsCommitted]));
    // client-b paid 1 credit of its 1; client-a paid nothing.
    expect(folders).toEqual({ 'client-a': 0, 'client-b': 1 });
    // client-b's budget is used up: no second photo.
    expect((await claim(pool, 'live', req('client-b', 'another'))).kind).toBe('budget');
  }, 60_000);
});
