import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, setFolderBudget } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { readStatus } from '../../../main/core/studio/pg-status';
import type { ClaimRequest } from '../../../main/core/studio/ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// Migration 7 while an instance still on schema 6's build keeps claiming (a studio updated one machine at a time: the
// older build only refuses a newer schema when it connects). The schema-6 claim function writes the folder row; the
// migration copies that row (one statement, its own snapshot) and zeroes it (the next statement). A claim committed
// in between, or one that was waiting on the row, must still count against the budget afterwards.

let server: TestPostgres;
const clients: pg.Client[] = [];
const pools: pg.Pool[] = [];

const connect = async () => {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  clients.push(client);
  return client;
};
const request = (key: string, folderKey: string, cost = 1): ClaimRequest => ({
  key, folderKey, contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost,
});
/** The schema-6 claim as the old build calls it (pg-claims.ts claim(), same SQL), inside a transaction left open. */
const oldClaimOpen = async (client: pg.Client, me: string, key: string, folder: string) => {
  await client.query('BEGIN');
  const { rows } = await client.query(`SELECT o_kind FROM batchroom_claim($1, $2, $3, $2, 'wf', 'p', $2, $2, 1::numeric, NULL, NULL,
    ARRAY['saved','unknown','charged-no-result','cancelled','skipped']::text[], 2, 0.000001::numeric)`, [me, key, folder]);
  expect(rows[0].o_kind).toBe('claimed');
};
/** Until `pid` waits on a lock, or `done` settles first (a ledger that never makes it wait), at most 5 s. */
async function waitingOnLock(admin: pg.Client, pid: number, done: Promise<unknown>): Promise<void> {
  let over = false;
  void done.then(() => { over = true; }, () => { over = true; });
  for (let i = 0; i < 200 && !over; i++) {
    const { rows } = await admin.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows[0]?.wait_event_type === 'Lock') return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await server?.stop();
});

describe('migration 7 beside an instance still running schema 6', () => {
  it('a schema-6 claim that commits while migration 7 runs still counts against the budget', async () => {
    const admin = await connect();
    await migrateLedger(admin, 6);
    const pool = ledgerPool(server, 4);
    pools.push(pool);
    await registerInstance(pool, { id: 'old', host: 'old', pid: 1, version: '6', label: null }, 600_000);
    await registerInstance(pool, { id: 'new', host: 'new', pid: 2, version: '7', label: null }, 600_000);
    await setFolderBudget(pool, 'up', 3);
    expect((await claim(pool, 'old', request('u1', 'up'))).kind).toBe('claimed');

    // The old build's claim of u2 is running (its statement holds the folder row) when the new build migrates.
    const old = await connect();
    await oldClaimOpen(old, 'old', 'u2', 'up');
    const migrator = await connect();
    const pid = (await migrator.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const migrating = migrateLedger(migrator);
    await waitingOnLock(admin, pid, migrating);
    await old.query('COMMIT');
    expect(await migrating).toBe(7);

    // Two photos are claimed (1 credit each) of a 3-credit budget.
    expect((await readStatus(pool, 'test')).folders.find((f) => f.folderKey === 'up')?.creditsCommitted).toBe(2);
    const more = await Promise.all(['n1', 'n2', 'n3'].map((key) => claim(pool, 'new', request(key, 'up'))));
    expect(more.filter((r) => r.kind === 'claimed')).toHaveLength(1);
    const reserved = (await admin.query(`SELECT sum(credits_reserved) AS s FROM batchroom_claims WHERE folder_key = 'up'`)).rows[0].s;
    expect(Number(reserved)).toBeLessThanOrEqual(3);
  }, 60_000);

  it('a schema-6 claim that waited on the migration\'s folder row counts against the budget the new claims check', async () => {
    const admin = await connect();
    await admin.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await migrateLedger(admin, 6);
    const pool = ledgerPool(server, 4);
    pools.push(pool);
    await registerInstance(pool, { id: 'old', host: 'old', pid: 1, version: '6', label: null }, 600_000);
    await registerInstance(pool, { id: 'new', host: 'new', pid: 2, version: '7', label: null }, 600_000);
    await setFolderBudget(pool, 'up', 3);
    expect((await claim(pool, 'old', request('u1', 'up'))).kind).toBe('claimed');

    // Hold the migration after it zeroed the folder row (it waits on batchroom_schema), while the old build claims u2:
    // its schema-6 UPDATE of the folder row waits for the migration, then adds its credit to the zeroed row.
    const holder = await connect();
    await holder.query('BEGIN');
    await holder.query('SELECT * FROM batchroom_schema FOR UPDATE');
    const migrator = await connect();
    const migratorPid = (await migrator.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const migrating = migrateLedger(migrator);
    await waitingOnLock(admin, migratorPid, migrating);
    const old = await connect();
    const oldPid = (await old.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const oldClaim = claim({ query: (text: string, values: unknown[]) => old.query(text, values) } as unknown as pg.Pool, 'old', request('u2', 'up'));
    await waitingOnLock(admin, oldPid, oldClaim);
    await holder.query('COMMIT');
    expect(await migrating).toBe(7);
    expect((await oldClaim).kind).toBe('claimed');

    expect((await readStatus(pool, 'test')).folders.find((f) => f.folderKey === 'up')?.creditsCommitted).toBe(2);
    const more = await Promise.all(['n1', 'n2', 'n3'].map((key) => claim(pool, 'new', request(key, 'up'))));
    expect(more.filter((r) => r.kind === 'claimed')).toHaveLength(1);
    const reserved = (await admin.query(`SELECT sum(credits_reserved) AS s FROM batchroom_claims WHERE folder_key = 'up'`)).rows[0].s;
    expect(Number(reserved)).toBeLessThanOrEqual(3);
  }, 60_000);
});
