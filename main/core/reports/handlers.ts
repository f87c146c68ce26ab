import type { reportChannels } from '../../../shared/ipc/channels/reports';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import { jobReportCsv, jobReportFileName } from '../../../shared/reports/job-report-csv';
import type { JobReport, JobReportQuery } from '../../../shared/reports/job-report';
import { openJournal, type Journal } from '../journal';
import { AppError } from '../../../shared/errors';
import type { BalanceReadingRecord, BalanceReadings } from './balance-readings';
import { buildJobReport, type JobReportRequest } from './job-report';

export interface ReportHandlerDeps {
  stateDir: string;
  /** The running engine's journal, or null when no engine runs in this process (then the file is opened to read). */
  runningJournal: () => Promise<Journal | null>;
  readings: BalanceReadings;
  /** The service account the balance is compared for (the current connection's). */
  account: () => string | null;
  /** `source: 'studio'`: the report over every instance through the saved studio ledger (studio/pg-report.ts). */
  studioReport?: (request: JobReportRequest, readings: BalanceReadingRecord[], account: string | null) => Promise<JobReport>;
  now?: () => Date;
}

/**
 * `reports:byGroup` and `reports:csv`: the History screen's report and `batchroom report --by`. A report only reads:
 * without an engine here (another process may hold its lock) the journal file is opened for the read and closed.
 * `source: 'studio'` sums every instance's hot-folder photos from the studio ledger instead.
 */
export function createReportHandlers(deps: ReportHandlerDeps): DomainHandlers<typeof reportChannels> {
  const report = async (query: JobReportQuery): Promise<JobReport> => {
    const request: JobReportRequest = { by: query.by, from: query.from ?? null, to: query.to ?? null };
    if (query.source === 'studio') {
      if (!deps.studioReport) throw new AppError('unavailable', 'The studio report is not available here.');
      return deps.studioReport(request, deps.readings.list(), deps.account());
    }
    const running = await deps.runningJournal();
    const journal = running ?? openJournal(deps.stateDir);
    try {
      return buildJobReport(journal, request, { readings: deps.readings.list(), account: deps.account() });
    } finally {
      if (!running) journal.close();
    }
  };
  return {
    'reports:byGroup': report,
    'reports:csv': async (query) => {
      const built = await report(query);
      return { csv: jobReportCsv(built), fileName: jobReportFileName(built, (deps.now ?? (() => new Date()))()) };
    },
  };
}
