import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { claimRequest, ledgerPool, pauseWalWriter } from '../../helpers/studio-claims';

// Review probe (a55a3a7 + 6829f06): a claim committed without its WAL flush is lost in a server crash. When the
// instance that held it does not remember the request (it restarted too: one box, power loss; or its re-claim met the
// budget), its submitting mark refuses with "claim was given up" → the engine's item is `claimed-elsewhere` →
// `cancelled`, and the hot folder's outcome step records `cancelled` under the key (outcome-step.ts record). With no
// row left, batchroom_record_outcome INSERTs the row as `cancelled` — a DONE state — so no instance ever processes
// the photo: "already processed by another Batchroom instance (cancelled)".

let server: TestPostgres | null = null;
const pools: pg.Pool[] = [];
const ledgers: StudioLedger[] = [];

afterEach(async () => {
  await Promise.all(ledgers.splice(0).map((l) => l.close().catch(() => undefined)));
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
  await server?.stop();
  server = null;
});

const poolOf = (s: TestPostgres) => {
  const pool = ledgerPool(s);
  pools.push(pool);
  return pool;
};
const request = claimRequest;
const open = async (s: TestPostgres, instanceId: string) => {
  const ledger = await openStudioLedger({ url: s.url, instanceId, version: 'test', env: { PGPASSWORD: s.password }, leaseMs: 60_000, heartbeatMs: 3_600_000 });
  ledgers.push(ledger);
  return ledger;
};
const retry = <T>(f: () => Promise<T>) => f().catch((error: { code?: string }) => {
  if (error.code !== 'unavailable') throw error;
  return f();
});

describe('a studio claim lost in a server crash, its owner restarted', () => {
  it('the photo is still processed by someone (not recorded done as cancelled)', async () => {
    server = await startTestPostgres({ quiet: true });
    const first = await open(server, 'a');
    await pauseWalWriter(poolOf(server));
    expect(await first.claim(request('solo'))).toEqual({ kind: 'claimed' });
    await server.crash(); // the studio's one box loses power: the server and instance a together
    await server.startServer();
    await first.close().catch(() => undefined);
    const restarted = await open(server, 'a'); // a's next start: same instance id, nothing remembered in memory
    // a's engine resumes its pending hot-folder item: the submitting mark refuses (nothing sent — right) …
    await expect(retry(() => restarted.submitting('solo'))).rejects.toMatchObject({ code: 'conflict' });
    // … the item ends `claimed-elsewhere` → `cancelled`, and the outcome step records that outcome (outcome-step.ts).
    await retry(async () => restarted.record({
      key: 'solo', contentHash: 'solo', workflowId: 'wf', parametersHash: 'ph', sourcePath: '/s/solo.jpg', outcome: 'cancelled',
      outputs: [], executionId: null, itemId: 'item-1', hotFolderId: null, creditsCharged: 0,
    }));
    // Nobody ever sent or paid for this photo: another instance (or a's own next scan) must be able to claim it.
    const other = await open(server, 'b');
    expect(await other.claim(request('solo'))).toEqual({ kind: 'claimed' });
  }, 120_000);

  it('a re-claim that meets the budget leaves the photo to be processed once the budget allows', async () => {
    server = await startTestPostgres({ quiet: true });
    const a = await open(server, 'a');
    await a.setFolder('shoot', 1);
    await pauseWalWriter(poolOf(server));
    expect(await a.claim(request('x'))).toEqual({ kind: 'claimed' });
    await server.crash(); // only the server: a keeps running and remembers the request
    await server.startServer();
    const b = await open(server, 'b');
    expect(await retry(() => b.claim(request('y')))).toEqual({ kind: 'claimed' }); // the one credit of room, taken meanwhile
    // a's re-claim at submitting meets the budget: refused, nothing sent (right) …
    await expect(retry(() => a.submitting('x'))).rejects.toMatchObject({ code: 'conflict' });
    await a.record({
      key: 'x', contentHash: 'x', workflowId: 'wf', parametersHash: 'ph', sourcePath: '/s/x.jpg', outcome: 'cancelled',
      outputs: [], executionId: null, itemId: 'item-x', hotFolderId: null, creditsCharged: 0,
    });
    // … the budget is raised: the photo, never sent, must be claimable (a 'budget' answer would be right too).
    await b.setFolder('shoot', 10);
    expect(await b.claim(request('x'))).toEqual({ kind: 'claimed' });
  }, 120_000);
});
