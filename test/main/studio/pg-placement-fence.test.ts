import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { connectStudioLedger } from '../../../main/core/studio/connect';
import type { TakenOver } from '../../../main/core/studio/pg-instances';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { claimRequest, ledgerPool } from '../../helpers/studio-claims';

// The last question before a result's final name (ledger.placement): an instance paused past its lease (a laptop
// lid, SIGSTOP, a long GC) whose accepted photo another instance took over to follow must not write the result too —
// before this both did, and the shared folder got `name (2).jpg`. The lease renewal it makes and a takeover never
// interleave: a real PostgreSQL, two ledgers, and a third connection holding the locks in between.

let server: TestPostgres;
let admin: pg.Pool;
const opened: StudioLedger[] = [];
let counter = 0;

beforeAll(async () => {
  server = await startTestPostgres({ quiet: true });
  admin = ledgerPool(server, 2);
}, 60_000);

afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
  await admin?.end().catch(() => undefined);
  await server?.stop();
});

/** Sleepers hold a short lease and let it run out for real (its ledger counts the time too); heirs a long one. */
const SLEEPER_LEASE_MS = 3_000; // the heir's sweep must finish within it (a loaded CI machine)

async function open(id: string, leaseMs = 60_000): Promise<StudioLedger> {
  // Heartbeats only when the test ticks.
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs, heartbeatMs: 3_600_000 });
  opened.push(ledger);
  return ledger;
}

/** A photo `owner` sent and the service accepted (paid): what a takeover follows. */
async function accepted(owner: StudioLedger): Promise<string> {
  const request = { ...claimRequest(`fence-${++counter}`), folderKey: 'fence' };
  expect(await owner.claim(request)).toEqual({ kind: 'claimed' });
  await owner.submitting(request.key);
  await owner.accepted(request.key, `exe_fence_${counter}`, 1);
  return request.key;
}

/** The sleeper stops answering (a laptop lid, SIGSTOP): no heartbeat until its lease has run out. */
const lapseFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const lapse = () => lapseFor(SLEEPER_LEASE_MS + 200);
const ownerOf = async (key: string) => ((await admin.query('SELECT owner FROM batchroom_claims WHERE key = $1', [key])).rows[0] as { owner: string }).owner;

function heirOf(ledger: StudioLedger): TakenOver[] {
  const taken: TakenOver[] = [];
  ledger.setScopes([{ folderKey: 'fence', workflowId: 'wf', parametersHash: 'ph' }]);
  ledger.onTakeover((items) => { taken.push(...items); });
  return taken;
}

describe('studio: a result is written by the instance that owns its photo at that moment', () => {
  it('tells an instance paused past its lease that the photo it paid for was taken over, and the taker that it is its own', async () => {
    const [sleeper, heir] = [await open('sleeper', SLEEPER_LEASE_MS), await open('heir')];
    const taken = heirOf(heir);
    const key = await accepted(sleeper);
    expect(await sleeper.placement(key)).toEqual({ ours: true });
    // The sleeper stops answering (its heartbeat with it); the heir's sweep follows its execution.
    await lapse();
    await heir.tick();
    expect(taken.map((t) => [t.key, t.action])).toEqual([[key, 'follow']]);
    // The sleeper wakes up with the result downloaded: not its to write any more.
    const verdict = await sleeper.placement(key);
    expect(verdict).toMatchObject({ ours: false, reason: expect.stringMatching(/took this photo over while this machine was paused past its studio lease/) });
    expect(await heir.placement(key)).toEqual({ ours: true });
    expect(await ownerOf(key)).toBe('heir');
  });

  it('keeps the photo of an instance whose placement renewed its lease before the sweep came', async () => {
    const [sleeper, heir] = [await open('sleeper2', SLEEPER_LEASE_MS), await open('heir2')];
    const taken = heirOf(heir);
    const key = await accepted(sleeper);
    await lapse();
    // Back before anyone swept: the placement renews the lease, so the next sweep finds a live instance.
    expect(await sleeper.placement(key)).toEqual({ ours: true });
    await heir.tick();
    expect(taken.map((t) => t.key)).not.toContain(key); // (an earlier test's sleeper, lapsed too, may be taken from)
    expect(await ownerOf(key)).toBe('sleeper2');
  });

  it('never interleaves a renewal and a takeover: a sweep skips a lease being renewed, a placement waits for a takeover', async () => {
    const [sleeper, heir] = [await open('sleeper3', SLEEPER_LEASE_MS), await open('heir3')];
    const taken = heirOf(heir);
    const key = await accepted(sleeper);
    await lapse();
    // A renewal in progress (placementOwner's first statement, not committed yet): the sweep does not read the lapsed
    // lease under it and take the photo a moment before the renewal commits and the sleeper writes it.
    const renewing = await admin.connect();
    try {
      await renewing.query('BEGIN');
      await renewing.query(`UPDATE batchroom_instances SET lease_until = now() + interval '60 seconds' WHERE id = 'sleeper3'`);
      await heir.tick();
      expect(taken.map((t) => t.key)).not.toContain(key); // (an earlier test's sleeper, lapsed too, may be taken from)
      await renewing.query('ROLLBACK');
    } finally {
      renewing.release();
    }
    // A takeover in progress (the sweep's lock on the lapsed instance, its owner change not committed yet): the
    // placement waits for it and reads its owner, not the one before.
    const sweeping = await admin.connect();
    try {
      await sweeping.query('BEGIN');
      await sweeping.query(`SELECT id FROM batchroom_instances WHERE id = 'sleeper3' AND lease_until < now() FOR NO KEY UPDATE`);
      await sweeping.query(`UPDATE batchroom_claims SET owner = 'heir3' WHERE key = $1`, [key]);
      let settled = false;
      const placement = sleeper.placement(key).finally(() => { settled = true; });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await sweeping.query('COMMIT');
      expect(await placement).toMatchObject({ ours: false });
    } finally {
      sweeping.release();
    }
  });

  it('answers from the lease while the database is away, and only while the last renewal surely still holds', async () => {
    const openWith = async (id: string, leaseMs: number) => {
      const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs, heartbeatMs: 3_600_000 });
      opened.push(ledger);
      return ledger;
    };
    // Both renewed at open: a long lease (40 s of it count as surely held) and a short one (2 s).
    const [long, short] = [await openWith('away-long', 60_000), await openWith('away-short', 3_000)];
    const [longKey, shortKey] = [await accepted(long), await accepted(short)];
    const shortRenewed = performance.now();
    await server.stopServer();
    try {
      // Renewed moments ago: no one can have taken it over within the lease.
      expect(await long.placement(longKey)).toEqual({ ours: true });
      await lapseFor(2_100 - (performance.now() - shortRenewed));
      // Two thirds of the lease gone: it cannot tell, and says so (the saver keeps the result and asks again later).
      await expect(short.placement(shortKey)).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      await server.startServer();
    }
    expect(await short.placement(shortKey)).toEqual({ ours: true });
  });

  it('cannot tell before a ledger that was unreachable at start has opened, and answers once it has', async () => {
    await server.stopServer();
    let ledger: StudioLedger;
    try {
      ledger = await connectStudioLedger({ url: server.url, instanceId: 'late', version: 'test', env: { PGPASSWORD: server.password }, leaseMs: 60_000, heartbeatMs: 3_600_000, retryMs: 60_000 });
      opened.push(ledger);
      // A restart with the database away: this instance's lease may have run out long ago, its photos taken over.
      await expect(ledger.placement('fence-late')).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      await server.startServer();
    }
    await ledger.tick();
    expect(ledger.reachable).toBe(true);
    const heir = await open('heir-late');
    const key = await accepted(heir);
    expect(await ledger.placement(key)).toMatchObject({ ours: false });
    expect(await heir.placement(key)).toEqual({ ours: true });
  });
});
