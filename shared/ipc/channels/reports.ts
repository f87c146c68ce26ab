import { z } from 'zod';
import { JobReportQuerySchema, JobReportSchema } from '../../reports/job-report';
import { invoke } from '../contract-kit';

// The History screen's numbers (issue 32 #4): photos, credits, failures and charged-no-result per job or client over a
// period, built by the same core as `batchroom report --by job|client`, so the app and the CLI never disagree.

export const ReportCsvSchema = z.object({ csv: z.string(), fileName: z.string() }).strict();
export type ReportCsv = z.infer<typeof ReportCsvSchema>;

export const reportChannels = {
  'reports:byGroup': invoke(JobReportQuerySchema, JobReportSchema),
  /** The same report as `batchroom report --csv` writes it, with a file name to offer it under. */
  'reports:csv': invoke(JobReportQuerySchema, ReportCsvSchema),
} as const;
