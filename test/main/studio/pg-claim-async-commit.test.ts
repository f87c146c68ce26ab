import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { claim, markSubmitting } from '../../../main/core/studio/pg-claims';
import { migrateLedger } from '../../../main/core/studio/pg-migrations';
import { registerInstance } from '../../../main/core/studio/pg-instances';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { claimRequest, ledgerPool, pauseWalWriter } from '../../helpers/studio-claims';

// A claim commits without waiting for its WAL flush (pg-claims.ts claim): the `submitting` mark, flushed before the
// POST, makes it durable. Proved on a real server: how many WAL flushes the client backends make, and what a server
// crash that loses a claim leaves (nothing sent by its owner, the photo free for another instance).

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

async function ledger(s: TestPostgres, instances: string[]): Promise<pg.Pool> {
  const pool = poolOf(s);
  const client = await pool.connect();
  try {
    await migrateLedger(client);
  } finally {
    client.release();
  }
  for (const id of instances) await registerInstance(pool, { id, host: id, pid: 1, version: 'test', label: null }, 3_600_000);
  return pool;
}

/** WAL flushes (fsync/fdatasync) the client backends made so far, as pg_stat_io counts them. */
async function clientWalFlushes(pool: pg.Pool): Promise<number> {
  await pool.query('SELECT pg_stat_force_next_flush()');
  await pool.query('SELECT 1'); // the forced flush of this backend's counters happens at a transaction's end
  const { rows } = await pool.query(`SELECT coalesce(sum(fsyncs), 0)::int AS n FROM pg_stat_io WHERE object = 'wal' AND backend_type = 'client backend'`);
  return (rows[0] as { n: number }).n;
}

describe('studio claims and the WAL flush', () => {
  it('a claim does not wait for a flush; the submitting mark before the POST does', async () => {
    server = await startTestPostgres({ fsync: true, quiet: true });
    const pool = await ledger(server, ['a']);
    const before = await clientWalFlushes(pool);
    for (let i = 0; i < 20; i++) expect(await claim(pool, 'a', request(`k${i}`))).toEqual({ kind: 'claimed' });
    const afterClaims = await clientWalFlushes(pool);
    for (let i = 0; i < 20; i++) await markSubmitting(pool, 'a', `k${i}`);
    const afterSubmits = await clientWalFlushes(pool);
    // Before: one flush per claim (20). The walwriter's own background flushes are not client backends'.
    expect(afterClaims - before).toBeLessThanOrEqual(2);
    expect(afterSubmits - afterClaims).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('a claim a server crash lost is refused at submit, and another instance may claim the photo', async () => {
    server = await startTestPostgres({ quiet: true });
    const pool = await ledger(server, ['a', 'b']);
    // The WAL writer writes an async commit's record soon after (it is woken for it): stopped here, so the kill -9
    // below finds the claim in the server's memory only, as a crash in that instant would.
    await pauseWalWriter(pool);
    expect(await claim(pool, 'a', request('lost'))).toEqual({ kind: 'claimed' });
    // Visible at once (the commit is done), durable only later: b sees it taken.
    expect(await claim(pool, 'b', request('lost'))).toMatchObject({ kind: 'taken', owner: 'a' });
    await server.crash();
    await server.startServer();
    const after = poolOf(server);
    // a never sends it: its submitting mark finds no claim of its own.
    await expect(markSubmitting(after, 'a', 'lost')).rejects.toMatchObject({ code: 'conflict' });
    // b, asking again as the claim step does for a photo it saw taken, gets it, and its submitting mark holds.
    expect(await claim(after, 'b', request('lost'))).toEqual({ kind: 'claimed' });
    await markSubmitting(after, 'b', 'lost');
    const { rows } = await after.query('SELECT owner, state FROM batchroom_claims WHERE key = $1', ['lost']);
    expect(rows).toEqual([{ owner: 'b', state: 'submitting' }]);
  }, 120_000);

  it('a claim followed by its submitting mark survives the crash', async () => {
    server = await startTestPostgres({ quiet: true });
    const pool = await ledger(server, ['a', 'b']);
    await pauseWalWriter(pool);
    expect(await claim(pool, 'a', request('kept'))).toEqual({ kind: 'claimed' });
    await markSubmitting(pool, 'a', 'kept');
    await server.crash();
    await server.startServer();
    const after = poolOf(server);
    expect(await claim(after, 'b', request('kept'))).toMatchObject({ kind: 'taken', owner: 'a', state: 'submitting' });
  }, 120_000);

  it('a lone instance whose claim the crash lost claims it again at submit and sends it', async () => {
    server = await startTestPostgres({ quiet: true });
    const ledger = await openStudioLedger({ url: server.url, instanceId: 'alone', version: 'test', env: { PGPASSWORD: server.password },
      leaseMs: 60_000, heartbeatMs: 3_600_000 });
    ledgers.push(ledger);
    const pool = poolOf(server);
    await pauseWalWriter(pool);
    expect(await ledger.claim(request('solo'))).toEqual({ kind: 'claimed' });
    await server.crash();
    await server.startServer();
    const after = poolOf(server);
    expect((await after.query('SELECT count(*)::int AS n FROM batchroom_claims WHERE key = $1', ['solo'])).rows).toEqual([{ n: 0 }]);
    // The ledger's connections died with the server: the first call may answer "unavailable" (the engine waits and
    // asks again); then the submitting mark claims the photo again rather than refusing a photo nobody holds.
    await ledger.submitting('solo').catch((error: { code?: string }) => {
      if (error.code !== 'unavailable') throw error;
      return ledger.submitting('solo');
    });
    const { rows } = await after.query('SELECT owner, state FROM batchroom_claims WHERE key = $1', ['solo']);
    expect(rows).toEqual([{ owner: 'alone', state: 'submitting' }]);
  }, 120_000);
});
