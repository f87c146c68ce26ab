import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, markAccepted, markSubmitting, recordOutcome, release, setFolderBudget } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger, PG_MIGRATIONS } from '../../../main/core/studio/pg-migrations';
import { runRetention } from '../../../main/core/studio/pg-retention';
import { readStatus } from '../../../main/core/studio/pg-status';
import type { ClaimRequest } from '../../../main/core/studio/ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// Studio schema 7 (main/core/studio/pg-spend.ts) on a real PostgreSQL: a folder's spend and counters live in rows per
// folder, instance and connection, so claims no longer write the folder's one row; the shared budget still holds to
// the credit with three instances racing for its last credits; a ledger left by schema 6 keeps its figures; and a
// photo done or held elsewhere is answered without waiting on its row.

let server: TestPostgres;
let admin: pg.Client;
const pools: pg.Pool[] = [];

const newPool = (max = 4) => {
  const pool = ledgerPool(server, max);
  pools.push(pool);
  return pool;
};
const sql = async (text: string, values: unknown[] = []) => (await admin.query(text, values)).rows;
const request = (key: string, folderKey: string, cost = 1): ClaimRequest => ({
  key, folderKey, contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost,
});
const saved = (key: string, charged = 1) => ({
  key, contentHash: key, workflowId: 'wf', parametersHash: 'p', sourcePath: `/s/${key}.jpg`, outcome: 'saved' as const, outputs: [],
  executionId: `exe-${key}`, itemId: null, hotFolderId: null, creditsCharged: charged,
});
async function instances(prefix: string, n = 3): Promise<Array<{ id: string; pool: pg.Pool }>> {
  return Promise.all(Array.from({ length: n }, async (_, i) => {
    const pool = newPool();
    const id = `${prefix}-${i}`;
    await registerInstance(pool, { id, host: id, pid: 1, version: 'test', label: null }, 600_000);
    return { id, pool };
  }));
}
async function win(pool: pg.Pool, me: string, key: string, folderKey: string): Promise<void> {
  await markSubmitting(pool, me, key);
  await markAccepted(pool, me, key, `exe-${key}`, 1);
  await recordOutcome(pool, me, folderKey, saved(key));
}

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await admin.connect();
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await admin?.end();
  await server?.stop();
});

describe('studio ledger schema 7: spend rows instead of the folder row', () => {
  it('migrates a ledger schema 6 wrote, with its spend, counters and budget intact', async () => {
    expect(await migrateLedger(admin, 6)).toBe(6);
    const [a, b] = await instances('old');
    // Written by schema 6's functions (the SQL the database holds at schema 6): 2 saved, 1 failed, 1 still claimed.
    await setFolderBudget(a!.pool, 'old-shoot', 6);
    for (const key of ['o1', 'o2', 'o3', 'o4']) expect((await claim(a!.pool, a!.id, request(key, 'old-shoot'))).kind).toBe('claimed');
    await win(a!.pool, a!.id, 'o1', 'old-shoot');
    await win(a!.pool, a!.id, 'o2', 'old-shoot');
    await recordOutcome(a!.pool, a!.id, 'old-shoot', { ...saved('o3', 0), outcome: 'failed', executionId: null });
    const before = await readStatus(a!.pool, 'test');
    expect(before.schemaVersion).toBe(6);
    expect(before.folders).toEqual([{ folderKey: 'old-shoot', budget: 6, creditsCommitted: 3, processed: 2, failed: 1 }]);

    expect(await migrateLedger(admin)).toBe(PG_MIGRATIONS.length);
    const after = await readStatus(a!.pool, 'test');
    expect(after.schemaVersion).toBe(7);
    expect(after.folders).toEqual(before.folders);
    expect(after.instances.map((i) => [i.id, i.processed, i.failed, i.creditsSpent])).toEqual(before.instances.map((i) => [i.id, i.processed, i.failed, i.creditsSpent]));
    // The carried spend counts against the budget: 3 of 6 committed, so 3 more photos and no fourth.
    const next = await Promise.all(['n1', 'n2', 'n3', 'n4', 'n5'].map((key, i) => claim((i % 2 ? a : b)!.pool, (i % 2 ? a : b)!.id, request(key, 'old-shoot'))));
    expect(next.filter((r) => r.kind === 'claimed')).toHaveLength(3);
    expect(next.filter((r) => r.kind === 'budget')).toEqual([{ kind: 'budget', budget: 6, committed: 6 }, { kind: 'budget', budget: 6, committed: 6 }]);
    await win(a!.pool, a!.id, 'o4', 'old-shoot');
    expect((await readStatus(a!.pool, 'test')).folders[0]).toMatchObject({ creditsCommitted: 6, processed: 3, failed: 1 });
  }, 60_000);

  it('claims and outcomes without a budget never write the folder row', async () => {
    const three = await instances('row');
    await sql(`INSERT INTO batchroom_folders (folder_key) VALUES ('quiet')`);
    // xmin is the row's version: an UPDATE makes a new one. The FOR SHARE lock each claim takes marks the row's
    // header (xmax, a multixact) without a new version, so this does not see it (nor is it meant to: share locks do
    // not wait on each other).
    const version = async () => (await sql(`SELECT xmin::text AS v FROM batchroom_folders WHERE folder_key = 'quiet'`))[0]!.v as string;
    const first = await version();
    const results = await Promise.all(three.flatMap(({ id, pool }) => Array.from({ length: 12 }, async (_, i) => {
      const result = await claim(pool, id, request(`quiet-${i}`, 'quiet'));
      if (result.kind === 'claimed') await win(pool, id, `quiet-${i}`, 'quiet');
      return result.kind;
    })));
    expect(results.filter((k) => k === 'claimed')).toHaveLength(12);
    await release(three[0]!.pool, three[0]!.id, 'nothing-here');
    expect(await version()).toBe(first);
    const status = await readStatus(three[0]!.pool, 'test');
    expect(status.folders.find((f) => f.folderKey === 'quiet')).toEqual({ folderKey: 'quiet', budget: null, creditsCommitted: 12, processed: 12, failed: 0 });
    expect(status.instances.filter((i) => i.id.startsWith('row-')).reduce((n, i) => n + i.processed, 0)).toBe(12);
  }, 60_000);

  it('three instances racing for a budget\'s last credits spend exactly up to it, never past', async () => {
    const three = await instances('race');
    await setFolderBudget(three[0]!.pool, 'race', 10);
    await setFolderBudget(three[0]!.pool, 'race-3', 10);
    for (const [folder, cost, wins] of [['race', 1, 10], ['race-3', 3, 3]] as const) {
      // 3 instances × 4 connections × 10 photos, all at once.
      const results = await Promise.all(three.flatMap(({ id, pool }) => Array.from({ length: 10 }, (_, i) =>
        claim(pool, id, request(`${folder}-${id}-${i}`, folder, cost)))));
      expect(results.filter((r) => r.kind === 'claimed'), folder).toHaveLength(wins);
      expect(results.filter((r) => r.kind === 'budget')).toHaveLength(30 - wins);
      const status = await readStatus(three[0]!.pool, 'test');
      expect(status.folders.find((f) => f.folderKey === folder)?.creditsCommitted).toBe(wins * cost);
    }
    // A failure that was never charged gives its reservation back: exactly one more photo fits.
    const [held] = (await sql(`SELECT key, owner FROM batchroom_claims WHERE folder_key = 'race' AND state = 'claimed' LIMIT 1`));
    const owner = three.find((i) => i.id === held!.owner)!;
    await recordOutcome(owner.pool, owner.id, 'race', { ...saved(held!.key, 0), outcome: 'failed', executionId: null });
    const again = await Promise.all(three.map(({ id, pool }, i) => claim(pool, id, request(`race-again-${i}`, 'race'))));
    expect(again.filter((r) => r.kind === 'claimed')).toHaveLength(1);
  }, 60_000);

  it('counts a charge above its reservation before the next claim checks the budget', async () => {
    const [a, b] = await instances('over');
    await setFolderBudget(a!.pool, 'over', 3);
    for (const key of ['over-1', 'over-2']) expect((await claim(a!.pool, a!.id, request(key, 'over'))).kind).toBe('claimed');
    await markSubmitting(a!.pool, a!.id, 'over-1');
    // The service charged 2 for a photo reserved at 1: committed 2 → 3, the budget's last credit. The outcome's
    // transaction is held open while another instance asks for a new photo.
    const held = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await held.connect();
    try {
      await held.query('BEGIN');
      await recordOutcome(held as unknown as pg.Pool, a!.id, 'over', saved('over-1', 2));
      const asked = claim(b!.pool, b!.id, request('over-3', 'over'));
      await new Promise((r) => setTimeout(r, 1_000));
      await held.query('COMMIT');
      expect(await asked).toEqual({ kind: 'budget', budget: 3, committed: 3 });
    } finally {
      await held.end();
    }
  }, 60_000);

  it('answers a photo done or held by a live instance without waiting on its row', async () => {
    const [a, b] = await instances('read');
    expect((await claim(a!.pool, a!.id, request('read-done', 'reads'))).kind).toBe('claimed');
    await win(a!.pool, a!.id, 'read-done', 'reads');
    expect((await claim(a!.pool, a!.id, request('read-held', 'reads'))).kind).toBe('claimed');
    const holder = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM batchroom_claims WHERE key IN ('read-done', 'read-held') FOR UPDATE`);
      const waited = Symbol('waited on the row lock');
      const answer = (key: string) => Promise.race([claim(b!.pool, b!.id, request(key, 'reads')),
        new Promise<symbol>((resolve) => setTimeout(() => resolve(waited), 5_000))]);
      expect(await answer('read-done')).toEqual({ kind: 'done', outcome: 'saved' });
      expect(await answer('read-held')).toEqual({ kind: 'taken', owner: a!.id, state: 'claimed' });
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
  }, 60_000);

  it('the retention run folds idle spend rows into one per folder and instance, sums unchanged', async () => {
    const three = await instances('fold');
    // Many connections: each writes a spend row of its own.
    await Promise.all(three.flatMap(({ id, pool }) => Array.from({ length: 8 }, async (_, i) => {
      if ((await claim(pool, id, request(`fold-${id}-${i}`, 'fold'))).kind === 'claimed') await win(pool, id, `fold-${id}-${i}`, 'fold');
    })));
    const rowsOf = async () => Number((await sql(`SELECT count(*) AS n FROM batchroom_folder_spend WHERE folder_key = 'fold'`))[0]!.n);
    expect(await rowsOf()).toBeGreaterThan(3);
    const before = await readStatus(three[0]!.pool, 'test');
    await sql(`UPDATE batchroom_folder_spend SET updated_at = now() - interval '2 hours' WHERE folder_key = 'fold'`);
    expect((await runRetention(three[0]!.pool, { everyMs: 0 })).ran).toBe(true);
    expect(await rowsOf()).toBe(3);
    expect(await readStatus(three[0]!.pool, 'test')).toEqual(before);
  }, 60_000);
});
