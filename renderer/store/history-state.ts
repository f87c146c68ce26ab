import type { ReportCsv } from '../../shared/ipc/channels/reports';
import type { JobReport, ReportGrouping } from '../../shared/reports/job-report';
import type { UiError } from '../lib/errors';

// The History screen's part of the store's shape (state.ts joins it into AppState). Types only: nothing here imports
// a slice, as in state.ts.

/** The period the History screen reports on; a custom one is two calendar days (YYYY-MM-DD), both included. */
export type HistoryPeriod =
  | { kind: 'this-month' }
  | { kind: 'last-month' }
  | { kind: 'custom'; from: string; to: string };

export interface HistorySlice {
  historyBy: ReportGrouping;
  historyPeriod: HistoryPeriod;
  /** The report for the grouping and period shown; the last good one stays while a new one loads. */
  historyReport: JobReport | null;
  historyLoading: boolean;
  historyError: UiError | null;
  /** Jobs and clients named before (earlier batches, this session's): the form's suggestions. */
  knownJobs: string[];
  knownClients: string[];
  setHistoryBy(by: ReportGrouping): void;
  setHistoryPeriod(period: HistoryPeriod): void;
  /** Reads the report for the current grouping and period (a later call's answer wins over an earlier one's). */
  loadHistory(): Promise<void>;
  /** The current report as CSV, made by the same core; null (and a notice) when it failed. */
  historyCsv(): Promise<ReportCsv | null>;
  /** Reads every job and client the reports know, once per session. */
  loadJobSuggestions(): Promise<void>;
  /** A batch just started with this job and client: suggest them from now on. */
  noteJobClient(names: { job?: string | undefined; client?: string | undefined }): void;
}
