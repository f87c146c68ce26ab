import type { JobReport, JobReportFigures } from '../../../shared/reports/job-report';
import { formatCredits, formatNumber } from '../../lib/format';

const COLUMN = { job: 'Job', client: 'Client' } as const;

/** Charged without a result: how many and what they cost, or a dash when none (the column is mostly empty). */
function chargedNoResult({ chargedNoResult: c }: JobReportFigures): string {
  return c.count === 0 ? '—' : `${formatNumber(c.count)} (${formatCredits(c.credits)})`;
}

function Figures({ figures }: { figures: JobReportFigures }) {
  return (
    <>
      <td className="num">{formatNumber(figures.batches)}</td>
      <td className="num">{formatNumber(figures.saved)}</td>
      <td className="num">{figures.failed === 0 ? '—' : formatNumber(figures.failed)}</td>
      <td className="num">{chargedNoResult(figures)}</td>
      <td className="num">{formatCredits(figures.credits)}</td>
    </>
  );
}

/** One row per job or client, most credits first, and the totals of the period under them. */
export function HistoryTable({ report }: { report: JobReport }) {
  return (
    <table className="table history-table" aria-label={`Credits per ${report.by}`}>
      <thead>
        <tr>
          <th scope="col">{COLUMN[report.by]}</th>
          <th scope="col" className="num">Batches</th>
          <th scope="col" className="num">Photos saved</th>
          <th scope="col" className="num">Failed</th>
          <th scope="col" className="num">Charged, no result</th>
          <th scope="col" className="num">Credits</th>
        </tr>
      </thead>
      <tbody>
        {report.groups.map((g) => (
          <tr key={g.key ?? ''}>
            <th scope="row" className={g.key === null ? 'muted' : undefined}>{g.label}</th>
            <Figures figures={g} />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <Figures figures={report.totals} />
        </tr>
      </tfoot>
    </table>
  );
}
