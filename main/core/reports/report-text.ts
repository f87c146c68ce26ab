import { creditAmount } from '../../../shared/engine/money';
import type { JobReport, JobReportFigures } from '../../../shared/reports/job-report';

// The job/client report as the terminal shows it: a table with a totals row, then the balance sentence (or why there
// is none). Plain text, no colour: it is pasted into invoices and e-mails.

const HEADER = ['batches', 'saved', 'failed', 'credits', 'charged, no result'];

const cells = (label: string, f: JobReportFigures): string[] => [
  label, String(f.batches), String(f.saved), String(f.failed), creditAmount(f.credits),
  f.chargedNoResult.count === 0 ? '0' : `${f.chargedNoResult.count} (${creditAmount(f.chargedNoResult.credits)} credits)`,
];

function periodText(report: JobReport): string {
  if (report.from === null && report.to === null) return 'all time';
  return `${report.from ?? 'the start'} to ${report.to ?? 'now'}`;
}

/** The lines of the report (without trailing newlines). */
export function jobReportLines(report: JobReport): string[] {
  const rows = [[report.by, ...HEADER], ...report.groups.map((g) => cells(g.label, g)), cells('Total', report.totals)];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const source = report.source === 'studio' ? ', every studio instance' : '';
  const lines = [`Credits by ${report.by}, ${periodText(report)}${source}`, line(rows[0]!)];
  for (const row of rows.slice(1, -1)) lines.push(line(row));
  lines.push(line(rows.at(-1)!));
  if (report.groups.length === 0) lines.push(`No batch had a photo end or a charge in this period.`);
  if (report.source === 'studio') lines.push('Hot-folder photos of every instance; batches started by hand are in each machine\'s own report (without --studio).');
  lines.push('', ...balanceLines(report));
  return lines;
}

function balanceLines(report: JobReport): string[] {
  const b = report.balance;
  if (!b) return ['No two balance readings of one service account fall in this period: the totals cannot be held against the service balance.'];
  const spent = -b.change;
  const lines = [
    `Service balance changed by ${b.change > 0 ? '+' : ''}${creditAmount(b.change)} credits from ${b.first.at} to ${b.last.at}`
      + ` (${creditAmount(b.first.credits)} → ${creditAmount(b.last.credits)}); Batchroom's batches account for ${creditAmount(b.batchroomCredits)} credits.`,
  ];
  if (Math.abs(b.unexplained) < 1e-6) lines.push('They add up.');
  else {
    lines.push(`${creditAmount(Math.abs(b.unexplained))} credits ${b.unexplained > 0 ? 'were spent' : 'were added'} outside Batchroom's batches`
      + ` (balance ${spent >= 0 ? 'spent' : 'gained'} ${creditAmount(Math.abs(spent))}). Why they can differ:`);
    for (const note of b.notes) lines.push(`  - ${note}`);
  }
  if (!b.coversPeriod) lines.push('Some of the period\'s charges fall outside these two readings: those are not compared.');
  return lines;
}
