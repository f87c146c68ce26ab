import type { reportChannels } from '../../../shared/ipc/channels/reports';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import { jobReportCsv, jobReportFileName } from '../../../shared/reports/job-report-csv';
import type { JobReport, JobReportQuery } from '../../../shared/reports/job-report';
import { openJournal, type Journal } from '../journal';
import type { BalanceReadings } from './balance-readings';
import { buildJobReport, type JobReportRequest } from './job-report';

export interface ReportHandlerDeps {
  stateDir: string;
  /** The running engine's journal, or null when no engine runs in this process (then the file is opened to read). */
  runningJournal: () => Promise<Journal | null>;
  readings: BalanceReadings;
  /** The service account the balance is compared for (the current connection's). */
  account: () => string | null;
  /** In studio mode: the report over every instance (studio/pg-report.ts); null: this machine's journal. */
  studioReport?: () => Promise<((request: JobReportRequest) => Promise<JobReport>) | null>;
  now?: () => Date;
}

/**
 * `reports:byGroup` and `reports:csv`: the History screen's report and `batchroom report --by`. A report only reads:
 * without an engine here (another process may hold its lock) the journal file is opened for the read and closed.
 */
export function createReportHandlers(deps: ReportHandlerDeps): DomainHandlers<typeof reportChannels> {
  const report = async (query: JobReportQuery): Promise<JobReport> => {
    const request: JobReportRequest = { by: query.by, from: query.from ?? null, to: query.to ?? null };
    const studio = await deps.studioReport?.();
    if (studio) return studio(request);
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
