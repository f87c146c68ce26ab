import { z } from 'zod';
import { BatchSummarySchema, ExtraDeliverableSchema, OutputOptionsSchema } from './model';

/**
 * "Export again without paying" (engine/export-again.ts): results already paid for — of one batch, or of every batch
 * with results completed since a moment — made into new deliverables, into `output.outputFolder`.
 */
export const ExportRequestSchema = z.object({
  /** One batch (its id, or the first 8+ characters of it), or every result completed since this ISO date/date-time. */
  from: z.union([z.object({ batchId: z.string().min(1) }).strict(), z.object({ since: z.string().min(1) }).strict()]),
  output: OutputOptionsSchema.partial().extend({ outputFolder: z.string().trim().min(1, 'choose the folder to export into') }),
  deliverables: z.array(ExtraDeliverableSchema).default([]),
  job: z.string().trim().min(1).max(120).optional(),
  client: z.string().trim().min(1).max(120).optional(),
}).strict();
export type ExportRequest = z.input<typeof ExportRequestSchema>;

/** A photo of the source that cannot be exported, and why (never paid, result lost by the service). */
export const NotExportableSchema = z.object({ batchId: z.string(), displayName: z.string(), reason: z.string() });
export type NotExportable = z.infer<typeof NotExportableSchema>;

export const ExportResultSchema = z.object({ batches: z.array(BatchSummarySchema), notExportable: z.array(NotExportableSchema) });
export type ExportResult = z.infer<typeof ExportResultSchema>;
