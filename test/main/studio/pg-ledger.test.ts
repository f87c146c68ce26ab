import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import type { ClaimRequest } from '../../../main/core/studio/ledger';
import { PG_MIGRATIONS } from '../../../main/core/studio/pg-migrations';
import { CLAIM_STATES } from '../../../shared/engine/claim-states';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// The studio ledger against a real PostgreSQL: claims, leases, takeover, the shared budget, migrations.

let server: TestPostgres;
const opened: StudioLedger[] = [];
let counter = 0;

beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);

afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
  await server?.stop();
});

async function open(id: string, leaseMs = 60_000): Promise<StudioLedger> {
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs, heartbeatMs: 3_600_000 });
  opened.push(ledger);
  return ledger;
}

function request(folderKey: string, overrides: Partial<ClaimRequest> = {}): ClaimRequest {
  counter++;
  return {
    key: `key-${counter}`, folderKey, contentHash: `hash-${counter}`, workflowId: 'wf', parametersHash: 'ph',
    relPath: `photo-${counter}.jpg`, sourcePath: `/mnt/share/photo-${counter}.jpg`, cost: 1, ...overrides,
  };
}

async function sql(text: string, params: unknown[] = []) {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe('studio ledger (PostgreSQL)', () => {
  it('migrates once, records the schema version, and refuses a newer schema', async () => {
    await open('migrate-a');
    await open('migrate-b');
    expect(await sql('SELECT version FROM batchroom_schema')).toEqual([{ version: PG_MIGRATIONS.length }]);
    await sql('UPDATE batchroom_schema SET version = 999');
    await expect(openStudioLedger({ url: server.url, instanceId: 'x', version: 't', env: { PGPASSWORD: server.password } })).rejects.toThrow(/newer Batchroom/);
    await sql('UPDATE batchroom_schema SET version = $1', [PG_MIGRATIONS.length]);
  });

  it('refuses a password in the URL and a wrong password, without echoing it', async () => {
    await expect(openStudioLedger({ url: server.url.replace('postgres@', 'postgres:hunter2@'), instanceId: 'x', version: 't', env: {} }))
      .rejects.toThrow(/no password in the studio ledger URL/);
    const wrong = openStudioLedger({ url: server.url, instanceId: 'x', version: 't', env: { PGPASSWORD: 'not-it-zz' }, leaseMs: 1000 });
    await expect(wrong).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(wrong).rejects.not.toThrow(/not-it-zz/);
  });

  it('gives each key to exactly one of many concurrent claimers', async () => {
    const ledgers = await Promise.all(['c1', 'c2', 'c3'].map((id) => open(id)));
    const requests = Array.from({ length: 40 }, () => request('concurrent'));
    const results = await Promise.all(ledgers.flatMap((l) => requests.map(async (r) => ({ id: l.instanceId, key: r.key, result: await l.claim(r) }))));
    for (const r of requests) {
      const winners = results.filter((x) => x.key === r.key && x.result.kind === 'claimed');
      expect(winners).toHaveLength(1);
    }
    const owners = await sql(`SELECT count(*)::int AS n FROM batchroom_claims WHERE folder_key = 'concurrent' AND state = 'claimed'`);
    expect(owners[0].n).toBe(40);
  });

  it('tracks a claim through submitting, the execution id and the outcome; done keys are done for everyone', async () => {
    const a = await open('flow-a');
    const b = await open('flow-b');
    const r = request('flow');
    expect(await a.claim(r)).toEqual({ kind: 'claimed' });
    expect(await b.claim(r)).toMatchObject({ kind: 'taken', owner: 'flow-a', state: 'claimed' });
    await expect(b.submitting(r.key)).rejects.toMatchObject({ code: 'conflict' });
    await a.submitting(r.key);
    await a.accepted(r.key, 'exec-flow-1', 1);
    expect(await sql('SELECT state, execution_id FROM batchroom_claims WHERE key = $1', [r.key])).toEqual([{ state: 'accepted', execution_id: 'exec-flow-1' }]);
    await a.setFolder('flow', null, 'folder-id');
    await a.record({ key: r.key, contentHash: r.contentHash, workflowId: 'wf', parametersHash: 'ph', sourcePath: r.sourcePath, outcome: 'saved',
      outputs: ['/out/x.jpg'], executionId: 'exec-flow-1', itemId: 'i1', hotFolderId: 'folder-id', creditsCharged: 1 });
    expect(await b.get(r.key)).toEqual({ outcome: 'saved' });
    expect(await b.claim(r)).toEqual({ kind: 'done', outcome: 'saved' });
    const status = await b.status();
    expect(status.folders.find((f) => f.folderKey === 'flow')).toMatchObject({ processed: 1, failed: 0, creditsCommitted: 1 });
    expect(status.instances.find((i) => i.id === 'flow-a')).toMatchObject({ processed: 1, creditsSpent: 1, alive: true, inFlight: 0 });
  });

  it('keeps its state CHECK equal to the shared claim table: a charged photo whose result was lost is recorded, not refused', async () => {
    const a = await open('charged-a');
    const r = request('charged');
    expect(await a.claim(r)).toEqual({ kind: 'claimed' });
    await a.submitting(r.key);
    await a.accepted(r.key, 'exec-charged-1', 1);
    await a.setFolder('charged', null, 'folder-id');
    // Before: the CHECK listed 8 hand-written states and refused this one (an internal error, the claim read back null).
    await a.record({ key: r.key, contentHash: r.contentHash, workflowId: 'wf', parametersHash: 'ph', sourcePath: r.sourcePath, outcome: 'charged-no-result',
      outputs: [], executionId: 'exec-charged-1', itemId: 'i1', hotFolderId: 'folder-id', creditsCharged: 1 });
    expect(await sql('SELECT state FROM batchroom_claims WHERE key = $1', [r.key])).toEqual([{ state: 'charged-no-result' }]);
    expect(await a.get(r.key)).toEqual({ outcome: 'charged-no-result' });
    const [check] = await sql(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'batchroom_claims_state_check'`);
    const states = new Set([...String(check.def).matchAll(/'([^']+)'/g)].map((m) => m[1]));
    // Every state of the shared table, and 'submitted' kept for instances of the older build during an upgrade.
    for (const state of CLAIM_STATES) expect(states.has(state)).toBe(true);
    expect(states.has('submitted')).toBe(true);
    await expect(sql(`UPDATE batchroom_claims SET state = 'no-such-state' WHERE key = $1`, [r.key])).rejects.toThrow(/check constraint/);
  });

  it('releases an unsubmitted claim and its budget reservation', async () => {
    const a = await open('release-a');
    const b = await open('release-b');
    await a.setFolder('release', 1);
    const r = request('release');
    expect(await a.claim(r)).toEqual({ kind: 'claimed' });
    expect(await b.claim(request('release'))).toMatchObject({ kind: 'budget', budget: 1, committed: 1 });
    await a.release(r.key);
    expect(await b.claim(r)).toEqual({ kind: 'claimed' });
  });

  it('holds a shared budget to the credit across instances, refunding failures that were not charged', async () => {
    const ledgers = await Promise.all(['b1', 'b2', 'b3'].map((id) => open(id)));
    await ledgers[0]!.setFolder('budget', 10);
    const requests = Array.from({ length: 30 }, () => request('budget', { cost: 1 }));
    const results = await Promise.all(requests.map((r, i) => ledgers[i % 3]!.claim(r)));
    expect(results.filter((x) => x.kind === 'claimed')).toHaveLength(10);
    expect(results.filter((x) => x.kind === 'budget')).toHaveLength(20);
    // One claimed photo fails without a charge: its credit goes back to the pool and one more photo fits.
    const failedIndex = results.findIndex((x) => x.kind === 'claimed');
    const failed = requests[failedIndex]!;
    const owner = ledgers[failedIndex % 3]!;
    await owner.record({ key: failed.key, contentHash: failed.contentHash, workflowId: 'wf', parametersHash: 'ph', sourcePath: failed.sourcePath,
      outcome: 'failed', outputs: [], executionId: null, itemId: null, hotFolderId: null, creditsCharged: 0 });
    const again = await Promise.all(requests.filter((_, i) => results[i]!.kind === 'budget').map((r) => ledgers[1]!.claim(r)));
    expect(again.filter((x) => x.kind === 'claimed')).toHaveLength(1);
    const folder = (await ledgers[0]!.status()).folders.find((f) => f.folderKey === 'budget');
    expect(folder?.creditsCommitted).toBe(10);
  });

  it('takes over a dead instance: followed if the execution id is known, unknown if mid-submit, released if unsubmitted', async () => {
    // A long lease: the test ends it itself below (a 200 ms one ran out under load before the first look, 1 run in CI).
    const dead = await open('dead', 60_000);
    const heir = await open('heir');
    const [submitted, submitting, unsubmitted, otherWorkflow] = [request('takeover'), request('takeover'), request('takeover'), request('takeover', { workflowId: 'other' })];
    for (const r of [submitted, submitting, unsubmitted, otherWorkflow]) expect(await dead.claim(r)).toEqual({ kind: 'claimed' });
    await dead.submitting(submitted.key);
    await dead.accepted(submitted.key, 'exec-takeover-1', 1);
    await dead.submitting(submitting.key);
    await dead.submitting(otherWorkflow.key);
    await dead.accepted(otherWorkflow.key, 'exec-takeover-2', 1);
    // The lease is alive: nothing to take over, and the claims are not up for grabs.
    heir.setScopes([{ folderKey: 'takeover', workflowId: 'wf', parametersHash: 'ph' }]);
    const taken: Array<{ key: string; action: string; executionId: string | null; relPath: string }> = [];
    heir.onTakeover((items) => { taken.push(...items); });
    await heir.tick();
    expect(taken).toEqual([]);
    expect(await heir.claim(unsubmitted)).toMatchObject({ kind: 'taken' });
    // kill -9: the heartbeat stops, the lease runs out.
    await sql(`UPDATE batchroom_instances SET lease_until = now() - interval '1 second' WHERE id = 'dead'`);
    await heir.tick();
    const byKey = Object.fromEntries(taken.map((t) => [t.key, t]));
    expect(byKey[submitted.key]).toMatchObject({ action: 'follow', executionId: 'exec-takeover-1', relPath: submitted.relPath });
    expect(byKey[submitting.key]).toMatchObject({ action: 'unknown' });
    expect(byKey[unsubmitted.key]).toMatchObject({ action: 'released' });
    expect(byKey[otherWorkflow.key]).toBeUndefined();
    expect(await heir.get(submitting.key)).toEqual({ outcome: 'unknown' });
    expect((await sql('SELECT reason FROM batchroom_claims WHERE key = $1', [submitting.key]))[0].reason).toMatch(/check the provider's dashboard/);
    expect(await heir.claim(unsubmitted)).toEqual({ kind: 'claimed' });
    expect(await heir.claim(submitting)).toEqual({ kind: 'done', outcome: 'unknown' });
    expect((await sql('SELECT owner FROM batchroom_claims WHERE key = $1', [submitted.key]))[0].owner).toBe('heir');
    // A dead instance that comes back and finally learns the execution id turns "unknown" back into followed.
    await dead.accepted(submitting.key, 'exec-takeover-3', 1);
    expect((await sql('SELECT state, owner FROM batchroom_claims WHERE key = $1', [submitting.key]))[0]).toEqual({ state: 'accepted', owner: 'dead' });
  });

  it('two sweepers split a dead instance\'s claims without taking any twice', async () => {
    const dead = await open('dead2', 200);
    const keys = Array.from({ length: 30 }, () => request('split'));
    for (const r of keys) {
      await dead.claim(r);
      await dead.submitting(r.key);
      await dead.accepted(r.key, `exec-split-${r.key}`, 1);
    }
    await sql(`UPDATE batchroom_instances SET lease_until = now() - interval '1 second' WHERE id = 'dead2'`);
    const sweepers = await Promise.all(['s1', 's2'].map((id) => open(id)));
    const taken: string[] = [];
    for (const s of sweepers) {
      s.setScopes([{ folderKey: 'split', workflowId: 'wf', parametersHash: 'ph' }]);
      s.onTakeover((items) => { taken.push(...items.map((i) => i.key)); });
    }
    await Promise.all(sweepers.map((s) => s.tick()));
    await Promise.all(sweepers.map((s) => s.tick()));
    expect(taken.sort()).toEqual(keys.map((k) => k.key).sort());
  });

  it('reports the database going away and coming back', async () => {
    const ledger = await open('restart');
    const changes: boolean[] = [];
    ledger.onReachability((reachable) => changes.push(reachable));
    await server.stopServer();
    await expect(ledger.claim(request('restart'))).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/studio ledger unreachable/) });
    expect(ledger.reachable).toBe(false);
    await server.startServer();
    await ledger.tick();
    expect(ledger.reachable).toBe(true);
    expect(await ledger.claim(request('restart'))).toEqual({ kind: 'claimed' });
    expect(changes).toEqual([false, true]);
  });
});
