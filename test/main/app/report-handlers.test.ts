import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { openJournal, type BatchRecord, type Journal } from '../../../main/core/journal';
import { openBalanceReadings } from '../../../main/core/reports/balance-readings';
import { createReportHandlers } from '../../../main/core/reports/handlers';

// reports:byGroup and reports:csv as the app calls them (issue 32 #4, the History screen): through the one
// dispatcher every host uses, so arguments are zod-parsed against the contract and answers come as {ok, data}.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batch(id: string, tags: { job?: string; client?: string }): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' }, ...tags });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

/** A batch of `n` photos, each saved and charged `credits` now. */
function savedBatch(journal: Journal, id: string, tags: { job?: string; client?: string }, n: number, credits: number) {
  journal.createBatch(batch(id, tags), Array.from({ length: n }, (_, i) => ({
    id: `${id}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/${id}${i}.jpg` }, relDir: '', contentHash: `${id}h${i}`, state: 'pending' as const, reason: null,
  })));
  for (let i = 0; i < n; i++) {
    journal.recordAccepted(`${id}-${i}`, `exe-${id}-${i}`, credits, new Date().toISOString(), 'adopt');
    journal.updateItem(`${id}-${i}`, { event: 'complete', resultUrls: ['https://x/r.png'] });
    journal.updateItem(`${id}-${i}`, { event: 'save', outputs: [`/out/${id}${i}.png`], completedAt: new Date().toISOString() });
  }
}

describe('reports:* handlers over the contract', () => {
  let stateDir: string;
  let running: Journal | null;

  const dispatcher = () => createInvokeDispatcher(contract, createReportHandlers({
    stateDir, readings: openBalanceReadings(stateDir), account: () => 'acct-1', runningJournal: async () => running,
    now: () => new Date('2026-11-27T12:00:00.000Z'),
  }) as never);

  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'batchroom-report-handlers-'));
    const journal = openJournal(stateDir);
    savedBatch(journal, 'a', { job: 'Smith wedding', client: 'Smith' }, 2, 2);
    savedBatch(journal, 'b', { client: 'Jones' }, 1, 1.5);
    journal.close();
    running = null;
  });
  afterEach(async () => {
    running?.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('refuses arguments the contract does not accept, before any report is built', async () => {
    const dispatch = dispatcher();
    expect(await dispatch('reports:byGroup', { by: 'photographer' })).toMatchObject({ ok: false, code: 'bad_request', field: 'by' });
    expect(await dispatch('reports:byGroup', { by: 'job', from: '2026-11-01' })).toMatchObject({ ok: false, code: 'bad_request', field: 'from' });
    expect(await dispatch('reports:csv', { by: 'job', extra: true })).toMatchObject({ ok: false, code: 'bad_request' });
  });

  it('answers the report per job or client with open ends defaulted, from the journal file when no engine runs', async () => {
    const dispatch = dispatcher();
    const byJob = await dispatch('reports:byGroup', { by: 'job' });
    expect(byJob).toMatchObject({ ok: true, data: { by: 'job', from: null, to: null, source: 'journal', balance: null } });
    if (!byJob.ok) throw new Error(byJob.message);
    const report = byJob.data as { groups: { label: string; saved: number; credits: number }[]; totals: { saved: number; credits: number } };
    expect(report.groups.map((g) => [g.label, g.saved, g.credits])).toEqual([['Smith wedding', 2, 4], ['(no job)', 1, 1.5]]);
    expect(report.totals).toMatchObject({ saved: 3, credits: 5.5 });

    const future = await dispatch('reports:byGroup', { by: 'client', from: '2099-01-01T00:00:00.000Z', to: '2099-02-01T00:00:00+01:00' });
    expect(future).toMatchObject({ ok: true, data: { by: 'client', groups: [], totals: { saved: 0, credits: 0 } } });
  });

  it('reads the running engine\'s journal and leaves it open', async () => {
    running = openJournal(stateDir);
    savedBatch(running, 'c', { job: 'Smith wedding' }, 1, 2);
    const answer = await dispatcher()('reports:byGroup', { by: 'job' });
    expect(answer).toMatchObject({ ok: true, data: { groups: [{ label: 'Smith wedding', saved: 3, credits: 6 }, { label: '(no job)' }] } });
    expect(running.getBatch('c')).toBeDefined();
  });

  it('answers the CSV of the same report with a file name', async () => {
    const answer = await dispatcher()('reports:csv', { by: 'client' });
    expect(answer).toMatchObject({ ok: true, data: { fileName: 'batchroom-report-by-client-2026-11-27.csv' } });
    if (!answer.ok) throw new Error(answer.message);
    expect((answer.data as { csv: string }).csv.split('\r\n').slice(1, 4)).toEqual([
      'client,Smith,,,1,2,0,4,0,0',
      'client,Jones,,,1,1,0,1.5,0,0',
      'client,(total),,,2,3,0,5.5,0,0',
    ]);
  });
});
