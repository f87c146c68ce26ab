import type { JobReport, ReportGrouping } from '../../../shared/reports/job-report';

const figures = (batches: number, saved: number, failed: number, credits: number, lost = 0, lostCredits = 0) =>
  ({ batches, saved, failed, credits, chargedNoResult: { count: lost, credits: lostCredits } });

/** A report as the core answers it: one named group, the batches naming none, totals and a balance comparison. */
export function jobReport(by: ReportGrouping): JobReport {
  const named = by === 'job' ? 'Smith wedding' : 'Smith family';
  return {
    by, from: null, to: null, source: 'journal',
    groups: [
      { key: named, label: named, ...figures(2, 40, 1, 84, 1, 2) },
      { key: null, label: `(no ${by})`, ...figures(1, 3, 0, 3) },
    ],
    totals: figures(3, 43, 1, 87, 1, 2),
    balance: {
      account: 'acct-1', first: { at: '2026-11-02T09:00:00.000Z', credits: 1000 }, last: { at: '2026-11-26T18:00:00.000Z', credits: 910 },
      change: -90, batchroomCredits: 87, unexplained: 3, coversPeriod: true,
      notes: ['Another client on the same key spends from the same balance.'],
    },
  };
}
