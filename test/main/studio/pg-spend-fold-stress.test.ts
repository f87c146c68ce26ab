import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { claim, markAccepted, markSubmitting, recordOutcome, release } from '../../../main/core/studio/pg-claims';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { FOLD_SPEND } from '../../../main/core/studio/pg-spend';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { ledgerPool } from '../../helpers/studio-claims';

// The fold (pg-spend.ts FOLD_SPEND) racing claims, releases and outcomes: with the idle hour cut to nothing, every
// spend row is folded while the connections that own them keep writing. The folder's summed spend must stay what
// its claim rows say (reserved + charged).

let server: TestPostgres;
let admin: pg.Client;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  admin.on('error', () => undefined);
  await admin.connect();
  await migrateLedger(admin);
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await admin?.end();
  await server?.stop();
});

describe('folding spend rows while they are written', () => {
  it('keeps the sums exact', async () => {
    const ids = ['s0', 's1', 's2'];
    const insts = await Promise.all(ids.map(async (id) => {
      const pool = ledgerPool(server, 4);
      pools.push(pool);
      await registerInstance(pool, { id, host: id, pid: 1, version: 't', label: null }, 600_000);
      return { id, pool };
    }));
    const fold = FOLD_SPEND.replace("interval '1 hour'", "interval '0 seconds'");
    let stop = false;
    const folder = async () => {
      let n = 0;
      while (!stop) {
        await admin.query(fold);
        n++;
      }
      return n;
    };
    let k = 0;
    const worker = async (id: string, pool: pg.Pool) => {
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        const key = `fs-${k++}`;
        const r = await claim(pool, id, { key, folderKey: 'fs', contentHash: key, workflowId: 'wf', parametersHash: 'p', relPath: key, sourcePath: key, cost: 2 });
        if (r.kind !== 'claimed') continue;
        if (k % 3 === 0) { await release(pool, id, key); continue; }
        await markSubmitting(pool, id, key);
        await markAccepted(pool, id, key, `exe-${key}`, 1);
        await recordOutcome(pool, id, 'fs', { key, contentHash: key, workflowId: 'wf', parametersHash: 'p', sourcePath: key,
          outcome: k % 5 === 0 ? 'failed' : 'saved', outputs: [], executionId: `exe-${key}`, itemId: null, hotFolderId: null, creditsCharged: k % 5 === 0 ? 0 : 1 });
      }
    };
    const folding = folder();
    await Promise.all(insts.flatMap(({ id, pool }) => Array.from({ length: 4 }, () => worker(id, pool))));
    stop = true;
    expect(await folding).toBeGreaterThan(3);
    await admin.query(fold);
    const truth = Number((await admin.query(`SELECT sum(credits_reserved + credits_charged) AS s FROM batchroom_claims WHERE folder_key = 'fs'`)).rows[0].s);
    const spend = Number((await admin.query(`SELECT sum(committed) AS s FROM batchroom_folder_spend WHERE folder_key = 'fs'`)).rows[0].s);
    const saved = Number((await admin.query(`SELECT count(*) AS n FROM batchroom_claims WHERE folder_key = 'fs' AND state = 'saved'`)).rows[0].n);
    const processed = Number((await admin.query(`SELECT sum(processed) AS s FROM batchroom_folder_spend WHERE folder_key = 'fs'`)).rows[0].s);
    expect(truth).toBeGreaterThan(10);
    expect(spend).toBe(truth);
    expect(processed).toBe(saved);
  }, 60_000);
});
