import { csvField } from '../engine/provider-report';
import type { JobReport, JobReportFigures } from './job-report';

// The job/client report as a CSV a spreadsheet opens: one row per group and a totals row, the period on each row so
// reports of several months can be pasted one under another.

export const JOB_REPORT_COLUMNS = [
  'group_by', 'group', 'from', 'to', 'batches', 'photos_saved', 'photos_failed', 'credits_charged',
  'charged_no_result', 'charged_no_result_credits',
] as const;

const figures = (f: JobReportFigures): Array<string | number> => [
  f.batches, f.saved, f.failed, f.credits, f.chargedNoResult.count, f.chargedNoResult.credits,
];

export function jobReportCsv(report: JobReport): string {
  const period = [report.from ?? '', report.to ?? ''];
  const lines = [JOB_REPORT_COLUMNS.join(',')];
  for (const group of report.groups) lines.push([report.by, group.label, ...period, ...figures(group)].map(csvField).join(','));
  lines.push([report.by, '(total)', ...period, ...figures(report.totals)].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `batchroom-report-by-client-2026-11-27.csv` */
export function jobReportFileName(report: Pick<JobReport, 'by'>, at: Date): string {
  return `batchroom-report-by-${report.by}-${at.toISOString().slice(0, 10)}.csv`;
}
