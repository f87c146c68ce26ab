import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { JobReportSchema } from '../../../shared/reports/job-report';
import { jobReportCsv } from '../../../shared/reports/job-report-csv';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../../../main/core/journal';
import { buildJobReport } from '../../../main/core/reports/job-report';
import { jobReportLines } from '../../../main/core/reports/report-text';

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batch(id: string, tags: { job?: string; client?: string }): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' }, ...tags });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

const items = (batchId: string, n: number): NewItem[] => Array.from({ length: n }, (_, i) => ({
  id: `${batchId}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/p${i}.jpg` }, relDir: '', contentHash: `${batchId}h${i}`, state: 'pending', reason: null,
}));

describe('job/client report over the journal', () => {
  let dir: string;
  let journal: Journal;
  const now = () => new Date().toISOString();

  const saved = (id: string, credits: number, at = now()) => {
    journal.recordAccepted(id, `exe-${id}`, credits, at, 'adopt');
    journal.updateItem(id, { event: 'complete', resultUrls: ['https://x/r.png'] });
    journal.updateItem(id, { event: 'save', outputs: [`/out/${id}.png`], completedAt: now() });
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-report-'));
    journal = openJournal(dir);
    // Wedding for Smith: one saved (2), one refunded (0), one the service forgot after charging (2).
    journal.createBatch(batch('a', { job: 'Wedding', client: 'Smith' }), items('a', 3));
    saved('a-0', 2);
    journal.recordAccepted('a-1', 'exe-a-1', 2, now(), 'adopt');
    // As the engine does (follow-execution.ts): the execution failed, the service refunded it.
    journal.updateExecution('exe-a-1', { status: 'failed', completedAt: now() });
    journal.recordRefund('a-1', 'the service failed it', now());
    journal.recordAccepted('a-2', 'exe-a-2', 2, now(), 'adopt');
    journal.updateItem('a-2', { event: 'execution-gone', reason: 'gone', completedAt: now() });
    // Smith again, no job: two saved at 1.5.
    journal.createBatch(batch('b', { client: 'Smith' }), items('b', 2));
    saved('b-0', 1.5);
    saved('b-1', 1.5);
    // Nobody's: one saved.
    journal.createBatch(batch('c', {}), items('c', 1));
    saved('c-0', 0.1);
  });

  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('groups by job: photos, failures, credits and charged-no-result, batches without a job last, totals add up', () => {
    const report = buildJobReport(journal, { by: 'job', from: null, to: null });
    expect(JobReportSchema.parse(report)).toEqual(report);
    expect(report.groups).toEqual([
      { key: 'Wedding', label: 'Wedding', batches: 1, saved: 1, failed: 1, credits: 4, chargedNoResult: { count: 1, credits: 2 } },
      { key: null, label: '(no job)', batches: 2, saved: 3, failed: 0, credits: 3.1, chargedNoResult: { count: 0, credits: 0 } },
    ]);
    expect(report.totals).toEqual({ batches: 3, saved: 4, failed: 1, credits: 7.1, chargedNoResult: { count: 1, credits: 2 } });
    expect(report.balance).toBeNull();
  });

  it('groups by client', () => {
    const report = buildJobReport(journal, { by: 'client', from: null, to: null });
    expect(report.groups.map((g) => [g.label, g.batches, g.saved, g.credits])).toEqual([['Smith', 2, 3, 7], ['(no client)', 1, 1, 0.1]]);
  });

  it('counts a credit when the service took it and a photo when it ended: a charge dated before the period is outside it', () => {
    journal.createBatch(batch('old', { job: 'Archive' }), items('old', 1));
    saved('old-0', 5, '2020-01-01T10:00:00.000Z');
    const since2021 = buildJobReport(journal, { by: 'job', from: '2021-01-01T00:00:00.000Z', to: null });
    // The photo ended now (counted), its charge was in 2020 (not).
    expect(since2021.groups.find((g) => g.key === 'Archive')).toMatchObject({ saved: 1, credits: 0 });
    const in2020 = buildJobReport(journal, { by: 'job', from: '2020-01-01T00:00:00.000Z', to: '2021-01-01T00:00:00.000Z' });
    expect(in2020.groups).toEqual([{ key: 'Archive', label: 'Archive', batches: 1, saved: 0, failed: 0, credits: 5, chargedNoResult: { count: 0, credits: 0 } }]);
    expect(buildJobReport(journal, { by: 'job', from: '2099-01-01T00:00:00.000Z', to: null }).groups).toEqual([]);
  });

  it('holds the totals against two balance readings, and says what Batchroom does not account for', () => {
    const before = '2000-01-01T00:00:00.000Z';
    const after = new Date(Date.now() + 60_000).toISOString();
    const readings = [
      { at: before, account: 'acct', credits: 100 },
      { at: after, account: 'acct', credits: 90 },
      { at: after, account: 'other', credits: 5 },
    ];
    const report = buildJobReport(journal, { by: 'client', from: null, to: null }, { readings, account: 'acct' });
    expect(report.balance).toMatchObject({ account: 'acct', change: -10, batchroomCredits: 7.1, unexplained: 2.9, coversPeriod: true });
    const text = jobReportLines(report).join('\n');
    expect(text).toContain('Service balance changed by -10 credits');
    expect(text).toContain("Batchroom's batches account for 7.1 credits");
    expect(text).toContain('2.9 credits were spent outside');
  });

  it('writes a CSV with a totals row', () => {
    const csv = jobReportCsv(buildJobReport(journal, { by: 'client', from: null, to: null }));
    expect(csv.split('\r\n')).toEqual([
      'group_by,group,from,to,batches,photos_saved,photos_failed,credits_charged,charged_no_result,charged_no_result_credits',
      'client,Smith,,,2,3,1,7,1,2',
      'client,(no client),,,1,1,0,0.1,0,0',
      'client,(total),,,3,4,1,7.1,1,2',
      '',
    ]);
  });
});
