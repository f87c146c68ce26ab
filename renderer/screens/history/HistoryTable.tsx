import type { JobReport, JobReportFigures } from '../../../shared/reports/job-report';
import type { Formatters } from '../../../shared/i18n';
import { useFormat, useT } from '../../i18n';

/** Charged without a result: how many and what they cost, or a dash when none (the column is mostly empty). */
function chargedNoResult({ chargedNoResult: c }: JobReportFigures, format: Formatters): string {
  return c.count === 0 ? '—' : `${format.number(c.count)} (${format.credits(c.credits)})`;
}

function Figures({ figures }: { figures: JobReportFigures }) {
  const format = useFormat();
  return (
    <>
      <td className="num">{format.number(figures.batches)}</td>
      <td className="num">{format.number(figures.saved)}</td>
      <td className="num">{figures.failed === 0 ? '—' : format.number(figures.failed)}</td>
      <td className="num">{chargedNoResult(figures, format)}</td>
      <td className="num">{format.credits(figures.credits)}</td>
    </>
  );
}

/** One row per job or client, most credits first, and the totals of the period under them. */
export function HistoryTable({ report }: { report: JobReport }) {
  const t = useT('history');
  return (
    <table className="table history-table" aria-label={report.by === 'job' ? t('HistoryTable.perJob') : t('HistoryTable.perClient')}>
      <thead>
        <tr>
          <th scope="col">{report.by === 'job' ? t('HistoryTable.job') : t('HistoryTable.client')}</th>
          <th scope="col" className="num">{t('HistoryTable.batches')}</th>
          <th scope="col" className="num">{t('HistoryTable.saved')}</th>
          <th scope="col" className="num">{t('HistoryTable.failed')}</th>
          <th scope="col" className="num">{t('HistoryTable.chargedNoResult')}</th>
          <th scope="col" className="num">{t('HistoryTable.credits')}</th>
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
          <th scope="row">{t('HistoryTable.total')}</th>
          <Figures figures={report.totals} />
        </tr>
      </tfoot>
    </table>
  );
}
