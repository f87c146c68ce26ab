import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, setFolderBudget } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { createLedgerPool } from '../../../main/core/studio/pg-pool';
import { parseLedgerUrl } from '../../../main/core/studio/ledger-url';
import { silentLogger } from '../../../main/core/log';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// Schema 7's budgeted claim takes a transaction lock, then sums the folder's spend rows. That sum sees the previous
// lock holder's spend only if the statement's snapshot is taken after the lock: READ COMMITTED. A studio database
// whose default isolation is REPEATABLE READ (postgresql.conf or ALTER DATABASE … SET default_transaction_isolation;
// nothing in createLedgerPool sets it back) takes the snapshot when the claim's statement starts, before the lock.
// Schema 6 updated the folder row there, which fails with a serialization error instead of overspending.

let server: TestPostgres;
let admin: pg.Client;
const pools: pg.Pool[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await admin.connect();
  await migrateLedger(admin);
  await admin.query(`ALTER DATABASE batchroom SET default_transaction_isolation TO 'repeatable read'`);
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await admin?.end();
  await server?.stop();
});

describe('a budget on a database whose default isolation is REPEATABLE READ', () => {
  it('two claims racing for the last credit: one wins, the other is refused (or fails), never both', async () => {
    const pool = ledgerPool(server, 2);
    pools.push(pool);
    await registerInstance(pool, { id: 'a', host: 'a', pid: 1, version: 't', label: null }, 600_000);
    await registerInstance(pool, { id: 'b', host: 'b', pid: 2, version: 't', label: null }, 600_000);
    await setFolderBudget(pool, 'last', 1);
    const req = (key: string) => ({ key, folderKey: 'last', contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost: 1 });

    // Instance a's claim is in its statement (it holds the folder's lock) when b's claim starts.
    const a = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await a.connect();
    clients.push(a);
    await a.query('BEGIN');
    // Refusing to claim at all under REPEATABLE READ (an error) is as good as serializing.
    const first = await claim(a as unknown as pg.Pool, 'a', req('k1')).then((r) => r.kind, (e: Error) => `error: ${e.message}`);
    if (first !== 'claimed') await a.query('ROLLBACK');
    const bClient = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await bClient.connect();
    clients.push(bClient);
    const bPid = (await bClient.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const second = claim(bClient as unknown as pg.Pool, 'b', req('k2')).then((r) => r.kind, (e: Error) => `error: ${e.message}`);
    for (let i = 0; i < 200 && first === 'claimed'; i++) {
      const { rows } = await admin.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [bPid]);
      if (rows[0]?.wait_event_type === 'Lock') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    if (first === 'claimed') await a.query('COMMIT');
    expect([first, await second].filter((k) => k === 'claimed').length).toBeLessThanOrEqual(1);
    const reserved = Number((await admin.query(`SELECT COALESCE(sum(credits_reserved), 0) AS s FROM batchroom_claims WHERE folder_key = 'last'`)).rows[0].s);
    expect(reserved).toBeLessThanOrEqual(1);
  }, 60_000);

  it('the ledger\'s own pool runs READ COMMITTED there, so its budgeted claims work and stop at the budget', async () => {
    const pool = await createLedgerPool({ target: parseLedgerUrl(server.url), password: async () => server.password, logger: silentLogger, max: 4 });
    pools.push(pool);
    // The database's default is what a plain connection gets.
    const fresh = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await fresh.connect();
    clients.push(fresh);
    expect((await fresh.query('SHOW transaction_isolation')).rows[0].transaction_isolation).toBe('repeatable read');
    expect((await pool.query('SHOW transaction_isolation')).rows[0].transaction_isolation).toBe('read committed');
    await registerInstance(pool, { id: 'c', host: 'c', pid: 3, version: 't', label: null }, 600_000);
    await setFolderBudget(pool, 'own-pool', 2);
    const req = (key: string) => ({ key, folderKey: 'own-pool', contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost: 1 });
    const results = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((key) => claim(pool, 'c', req(key))));
    expect(results.map((r) => r.kind).sort()).toEqual(['budget', 'budget', 'claimed', 'claimed']);
  }, 60_000);
});
