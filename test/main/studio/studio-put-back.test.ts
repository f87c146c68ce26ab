import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { createEngine, type Engine } from '../../../main/core/engine';
import { ledgerKey, parametersHash } from '../../../main/core/journal/ledger-key';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import { studioSubmitHooks } from '../../../main/core/studio/submit-hooks';
import { localClaimKeys, localUnsentKeys } from '../../../main/core/studio/local-unsent';
import { AppError } from '../../../shared/errors';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { until } from '../../helpers/until';
import { createFakeClient } from '../engine/fake-client';
import { captureGates, useEngineTestBed, writePhotos, type EngineTestBed } from '../engine/helpers';

// A submission put back at a stop (it waited at the gate, or was refused and requeued) was never sent: its studio
// claim must say so too. Left `submitting`, the next start turned it `unknown` ("may have been charged", studio-wide)
// and the photo was cancelled as "unknown by another instance" — never processed. Real PostgreSQL.

let server: TestPostgres;
beforeAll(async () => { server = await startTestPostgres(); }, 60_000);
afterAll(async () => { await server?.stop(); });

const open = (id: string, unsent?: (key: string) => boolean, known?: ReturnType<typeof localClaimKeys>) => openStudioLedger({
  url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, leaseMs: 60_000, heartbeatMs: 3_600_000,
  ...(unsent ? { unsentLocally: unsent } : {}), ...(known ? { knownLocally: known } : {}),
});

async function sql(text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

const claimState = async (key: string) => (await sql('SELECT state FROM batchroom_claims WHERE key = $1', [key]))[0]?.state as string | undefined;


interface Scene {
  client: ReturnType<typeof createFakeClient>;
  engine: Engine;
  hooks: ReturnType<typeof studioSubmitHooks>;
  ledger: { current: StudioLedger | null };
  batchId: string;
  key: string;
  item: () => ReturnType<EngineTestBed['journal']['getItem']> & object;
}

let instances = 0;

async function scene(bed: EngineTestBed, client = createFakeClient()): Promise<Scene> {
  instances++;
  await writePhotos(bed.input, 1, { offset: instances }); // one database for every test: each its own photo
  const ledger: { current: StudioLedger | null } = { current: await open(`instance-${instances}`) };
  const hooks = studioSubmitHooks(() => ledger.current, true);
  const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false, submitHooks: hooks }));
  const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') },
    source: { kind: 'hotFolder', hotFolderId: 'h1' } });
  const item = () => bed.journal.listItems({ batchId: batch.id }).items[0]!;
  const ph = parametersHash(bed.journal.getBatch(batch.id)!.spec.parameters);
  const key = ledgerKey(item().contentHash!, 'fake-edit', ph);
  await ledger.current!.claim({ key, folderKey: 'h1', contentHash: item().contentHash!, workflowId: 'fake-edit', parametersHash: ph, relPath: 'p.jpg', sourcePath: 'p.jpg', cost: 1 });
  return { client, engine, hooks, ledger, batchId: batch.id, key, item };
}

/** Reopens the ledger as the same instance, starts a new engine and says what became of the item. */
async function nextStart(bed: EngineTestBed, s: Scene, unsent?: (key: string) => boolean): Promise<{ outcome: string; executes: number; claim: string | undefined }> {
  const id = s.ledger.current!.instanceId;
  await s.ledger.current!.close();
  // As core-runtime.ts opens it: the claim, still `claimed`, has a pending local item, so it is kept (not given back).
  s.ledger.current = await open(id, unsent, localClaimKeys(bed.journal));
  const again = bed.setEngine(createEngine({ journal: bed.journal, client: s.client, concurrency: 1, balanceEvidence: false, submitHooks: s.hooks }));
  await again.start();
  // Sent (an execution id) or turned away; the result's polls may sleep for seconds, and are not what this is about.
  await until(() => s.item().executionId !== null || ['cancelled', 'failed', 'unknown'].includes(s.item().state), 'handled again',
    { timeoutMs: 15_000, detail: () => JSON.stringify(s.item()) });
  await new Promise((r) => setTimeout(r, 300));
  const item = s.item();
  const result = { outcome: item.executionId !== null ? 'sent' : `${item.state}: ${item.reason}`, executes: s.client.executeCalls(), claim: await claimState(s.key) };
  await again.stop({ graceful: false });
  bed.engine = undefined;
  await s.ledger.current.close();
  return result;
}

describe('studio: a submission put back at a stop', () => {
  const bed = useEngineTestBed();
  afterEach(async () => {
    vi.restoreAllMocks();
    await sql('DELETE FROM batchroom_claims'); // each test's fake service numbers its executions from 0 again
  });

  for (const graceful of [true, false]) {
    it(`waiting at the gate (${graceful ? 'graceful' : 'non-graceful'} stop) is sent at the next start — not unknown, not claimed-elsewhere`, async () => {
      const gates = captureGates();
      const s = await scene(bed);
      await s.engine.start();
      gates[0]!.backOff(3_000);
      await until(() => s.item().state === 'submitting', 'waiting at the gate');
      await s.engine.stop({ graceful });
      bed.engine = undefined;
      expect(s.item().state).toBe('pending');
      expect(s.client.executeCalls()).toBe(0);
      expect(await claimState(s.key)).toBe('claimed');
      expect(await nextStart(bed, s)).toEqual({ outcome: 'sent', executes: 1, claim: 'accepted' });
    }, 60_000);
  }

  it('refused with a retryable answer, then stopped, is sent at the next start', async () => {
    const client = createFakeClient({ onExecute: (n) => (n === 0 ? new AppError('rate_limited', 'slow down', { retryAfterMs: 3_000 }) : null) });
    const s = await scene(bed, client);
    await s.engine.start();
    await until(() => client.executeCalls() > 0 && s.item().state === 'submitting', 'refused, requeued and waiting out the Retry-After at the gate');
    await s.engine.stop({ graceful: false });
    bed.engine = undefined;
    expect(s.item().state).toBe('pending');
    expect(await claimState(s.key)).toBe('claimed');
    expect(await nextStart(bed, s)).toEqual({ outcome: 'sent', executes: 2, claim: 'accepted' });
  }, 60_000);

  it('whose claim stayed `submitting` (a crash before the claim was given back) is claimed again at the next start, by the local journal', async () => {
    const s = await scene(bed);
    await s.ledger.current!.submitting(s.key); // what a run that ended before its put-back reached the database left
    expect(s.item().state).toBe('pending');
    expect(await nextStart(bed, s, localUnsentKeys(bed.journal))).toEqual({ outcome: 'sent', executes: 1, claim: 'accepted' });
  }, 60_000);

  it('a claim left `submitting` whose local item may have been sent still becomes unknown', async () => {
    const s = await scene(bed);
    await s.ledger.current!.submitting(s.key);
    const unsent = localUnsentKeys(bed.journal);
    // The local item was `submitting` when the process ended: recovery makes it unknown, and so does the sweep.
    bed.journal.updateItem(s.item().id, { event: 'encode' });
    bed.journal.updateItem(s.item().id, { event: 'submit', attempts: 1 });
    await s.engine.recover();
    expect(s.item().state).toBe('unknown');
    expect(unsent(s.key)).toBe(false);
    const id = s.ledger.current!.instanceId;
    await s.ledger.current!.close();
    s.ledger.current = await open(id, unsent);
    expect(await claimState(s.key)).toBe('unknown');
    await s.ledger.current.close();
  }, 60_000);
});
