import { z } from 'zod';

// "Report to provider": the executions the service accepted and charged but no longer knows, so their results could
// not be fetched (item state `charged-no-result`). One CSV a user can attach to a support request: which execution,
// when, how many credits — never a key or a local path (the photo's display name only).

export const ProviderReportRowSchema = z.object({
  executionId: z.string(),
  submittedAt: z.string().nullable(),
  credits: z.number().nonnegative(),
  workflowId: z.string(),
  batchId: z.string(),
  photo: z.string(),
  reason: z.string().nullable(),
});
export type ProviderReportRow = z.infer<typeof ProviderReportRowSchema>;

export const ProviderReportSchema = z.object({ rows: z.array(ProviderReportRowSchema), csv: z.string(), fileName: z.string() });
export type ProviderReport = z.infer<typeof ProviderReportSchema>;

export const PROVIDER_REPORT_COLUMNS = ['execution_id', 'submitted_at', 'credits', 'workflow_id', 'batch_id', 'photo', 'reason'] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function providerReportCsv(rows: readonly ProviderReportRow[]): string {
  const lines = [PROVIDER_REPORT_COLUMNS.join(',')];
  for (const row of rows) {
    lines.push([row.executionId, row.submittedAt, row.credits, row.workflowId, row.batchId, row.photo, row.reason].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** `batchroom-provider-report-2026-11-24.csv` */
export function providerReportFileName(at: Date): string {
  return `batchroom-provider-report-${at.toISOString().slice(0, 10)}.csv`;
}
