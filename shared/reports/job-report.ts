import { z } from 'zod';

// Credits and photos per job or per client over a period: the shape the core builds (main/core/reports/), the CLI
// prints (`batchroom report --by job|client`) and the app's History screen shows. Plain data, so it crosses IPC and
// goes into `--json` as it is.

export const REPORT_GROUPINGS = ['job', 'client'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];

/**
 * What a report groups by and over which period: `from`/`to` are instants (ISO date-time with offset), either open.
 * `source`: this machine's journal (default), or every instance's hot-folder photos through the studio ledger.
 */
function asUtc(instant: string | null): string | null {
  return instant === null ? null : new Date(instant).toISOString();
}

export const JobReportQuerySchema = z.object({
  by: z.enum(REPORT_GROUPINGS),
  source: z.enum(['journal', 'studio']).default('journal'),
  // As UTC ('…Z'): the journal's times are, and they are compared as text (an offset such as +13:00 would not sort).
  from: z.iso.datetime({ offset: true }).nullable().default(null).transform(asUtc),
  to: z.iso.datetime({ offset: true }).nullable().default(null).transform(asUtc),
}).strict();
export type JobReportQuery = z.input<typeof JobReportQuerySchema>;

const Count = z.number().int().min(0);
const Credits = z.number().finite();

/** Executions the service accepted and charged but returned nothing for (the provider report lists them). */
export const ChargedNoResultSchema = z.object({ count: Count, credits: Credits }).strict();

/** The numbers of one group, and of the totals row. */
export const JobReportFiguresSchema = z.object({
  /** Batches with at least one item completed in the period. */
  batches: Count,
  /** Photos whose result was saved. */
  saved: Count,
  /** Photos that failed, the service refused, or whose answer was lost and is not settled yet (not charged-no-result). */
  failed: Count,
  /** Every credit charged in the period, charged-no-result included. */
  credits: Credits,
  chargedNoResult: ChargedNoResultSchema,
}).strict();
export type JobReportFigures = z.infer<typeof JobReportFiguresSchema>;

export const JobReportGroupSchema = JobReportFiguresSchema.extend({
  /** The job or client as the batches say it; null: batches that name none. */
  key: z.string().nullable(),
  /** What a person reads: the key, or "(no job)" / "(no client)". */
  label: z.string(),
}).strict();
export type JobReportGroup = z.infer<typeof JobReportGroupSchema>;

/** One reading of the service balance, as recorded by the app (main/core/reports/balance-readings). */
export const BalanceReadingSchema = z.object({ at: z.string(), credits: Credits }).strict();
export type BalanceReading = z.infer<typeof BalanceReadingSchema>;

/**
 * The service balance over the period, beside Batchroom's own charges: `change` is last − first (negative: spent);
 * `batchroomCredits` is what Batchroom's batches were charged between the two readings; `unexplained` is the spend
 * the journal does not know of (−change − batchroomCredits: another client on the same key, a purchase, a charge
 * outside Batchroom). Null when fewer than two readings of one account fall in the period.
 */
export const BalanceComparisonSchema = z.object({
  account: z.string(),
  first: BalanceReadingSchema,
  last: BalanceReadingSchema,
  change: Credits,
  batchroomCredits: Credits,
  unexplained: Credits,
  /** False when the readings start after `from` or end before `to`: charges outside them are not compared. */
  coversPeriod: z.boolean(),
  /** Why the two can differ, in words a person reads. */
  notes: z.array(z.string()),
}).strict();
export type BalanceComparison = z.infer<typeof BalanceComparisonSchema>;

export const JobReportSchema = z.object({
  by: z.enum(REPORT_GROUPINGS),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Where the numbers come from: this machine's journal, or every instance through the studio ledger. */
  source: z.enum(['journal', 'studio']),
  /** Sorted by credits, most first; the "(no …)" group last. */
  groups: z.array(JobReportGroupSchema),
  totals: JobReportFiguresSchema,
  balance: BalanceComparisonSchema.nullable(),
}).strict();
export type JobReport = z.infer<typeof JobReportSchema>;

/** The label of a group: its key, or "(no job)" / "(no client)". */
export function groupLabel(by: ReportGrouping, key: string | null): string {
  return key ?? `(no ${by})`;
}
