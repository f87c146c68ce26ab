import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, markAccepted, markSubmitting, recordOutcome, setFolderBudget } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { readStatus } from '../../../main/core/studio/pg-status';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// studio-ledger.ts record(): an outcome whose call failed as 'unavailable' is kept in `pending` and recorded again on
// the next heartbeat. A connection lost after the server committed the first call (the reply never arrived) makes
// that a second batchroom_record_outcome for the same photo and the same outcome.

let server: TestPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startTestPostgres();
  const admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await admin.connect();
  await migrateLedger(admin);
  await admin.end();
  pool = ledgerPool(server, 2);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

describe('an outcome recorded twice (reply lost, replayed from pending)', () => {
  it('counts the charge, the photo and the instance\'s spend once', async () => {
    await registerInstance(pool, { id: 'a', host: 'a', pid: 1, version: 't', label: null }, 600_000);
    await setFolderBudget(pool, 'f', 2);
    const req = { key: 'k1', folderKey: 'f', contentHash: 'k1', workflowId: 'wf', parametersHash: 'p', relPath: 'k1.jpg', sourcePath: '/s/k1.jpg', cost: 1 };
    expect((await claim(pool, 'a', req)).kind).toBe('claimed');
    await markSubmitting(pool, 'a', 'k1');
    await markAccepted(pool, 'a', 'k1', 'exe-k1', 1);
    const entry = { key: 'k1', contentHash: 'k1', workflowId: 'wf', parametersHash: 'p', sourcePath: '/s/k1.jpg', outcome: 'saved' as const,
      outputs: [], executionId: 'exe-k1', itemId: null, hotFolderId: null, creditsCharged: 1 };
    await recordOutcome(pool, 'a', 'f', entry);
    await recordOutcome(pool, 'a', 'f', entry); // the replay
    const status = await readStatus(pool, 'test');
    expect(status.folders.find((f) => f.folderKey === 'f')).toMatchObject({ creditsCommitted: 1, processed: 1 });
    expect(status.instances.find((i) => i.id === 'a')).toMatchObject({ processed: 1, creditsSpent: 1 });
    // 1 of 2 credits spent: one more photo fits.
    expect((await claim(pool, 'a', { ...req, key: 'k2', contentHash: 'k2' })).kind).toBe('claimed');
  }, 60_000);
});
