import { z } from 'zod';
import {
  BatchEstimateSchema, BatchProgressEventSchema, BatchSpecSchema, BatchSummarySchema, ItemOutcomeEventSchema, ItemStateSchema, ItemViewSchema,
  VerdictSchema,
} from '../../engine/model';
import { ProviderReportSchema } from '../../engine/provider-report';
import { ExportRequestSchema, ExportResultSchema } from '../../engine/export-request';
import { WorkflowParametersSchema } from '../../service/model';
import { event, invoke } from '../contract-kit';

const BatchRef = z.object({ batchId: z.string().min(1) }).strict();

/** How far a running estimate is: photos found (`total`, 0 while folders are walked) and read so far. */
export const EstimateProgressSchema = z.object({
  estimateId: z.number().int().positive(),
  phase: z.enum(['scanning', 'reading']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  elapsedMs: z.number().nonnegative(),
});
export type EstimateProgress = z.infer<typeof EstimateProgressSchema>;
const ItemRef = z.object({ itemId: z.string().min(1) }).strict();

export const batchChannels = {
  /** Scan inputs and price the batch before anything is spent: items, skipped files, cost vs balance, names. */
  'batches:estimate': invoke(BatchSpecSchema, BatchEstimateSchema),
  /** A long estimate's progress: first after 1 s, then at most 5 a second (main/core/engine/estimate-runs.ts). */
  'batches:estimateProgress': event(EstimateProgressSchema),
  /** Stops every estimate running now (it rejects with 'cancelled'); nothing was sent or spent. */
  'batches:cancelEstimate': invoke(z.object({}).strict(), z.object({ cancelled: z.number().int().nonnegative() })),
  /** Create and start a batch. Refused with `insufficient_credits` / `budget_exceeded` unless it fits. */
  'batches:create': invoke(BatchSpecSchema, BatchSummarySchema),
  'batches:list': invoke(z.object({}).strict(), z.array(BatchSummarySchema)),
  'batches:items': invoke(
    z.object({
      batchId: z.string().min(1),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(10_000).default(500),
      states: z.array(ItemStateSchema).optional(),
    }).strict(),
    z.object({ total: z.number().int().nonnegative(), items: z.array(ItemViewSchema) }),
  ),
  'batches:pause': invoke(BatchRef, BatchSummarySchema),
  'batches:resume': invoke(BatchRef, BatchSummarySchema),
  'batches:cancel': invoke(BatchRef, BatchSummarySchema),
  'batches:retryFailed': invoke(BatchRef, BatchSummarySchema),
  /** After a try-first batch: the rest of the selection with the same settings (the tried photos are not paid again). */
  'batches:continueTrial': invoke(BatchRef, BatchSummarySchema),
  /** Queue order: before (front) or after (back) every other open batch; submitted executions run on. */
  'batches:move': invoke(z.object({ batchId: z.string().min(1), to: z.enum(['front', 'back']) }).strict(), BatchSummarySchema),
  /** Queue priority (higher submits first; hot folders and `--priority` set it for their batches). */
  'batches:setPriority': invoke(z.object({ batchId: z.string().min(1), priority: z.number().int().min(-100).max(100) }).strict(), BatchSummarySchema),
  /** "Export again without paying": paid results made into new deliverables; one export batch per source batch. */
  'batches:export': invoke(ExportRequestSchema, ExportResultSchema),
  /** "Report to provider": executions charged without a result (one batch, or every batch when null), with a CSV. */
  'batches:providerReport': invoke(z.object({ batchId: z.string().min(1).nullable().default(null) }).strict(), ProviderReportSchema),
  'batches:progress': event(BatchProgressEventSchema),
  /** Each terminal outcome of each attempt, once, in order (the journal's outcome outbox). */
  'batches:outcome': event(ItemOutcomeEventSchema),
  'items:cancel': invoke(ItemRef, ItemViewSchema),
  /** Resubmitting an `unknown` item may charge twice: the caller must say it knows. */
  'items:resubmit': invoke(z.object({ itemId: z.string().min(1), acknowledgeMayChargeTwice: z.literal(true) }).strict(), ItemViewSchema),
  /** Move pending items to the front of the queue (in the given order), or before another pending item. */
  'items:reorder': invoke(
    z.object({ batchId: z.string().min(1), itemIds: z.array(z.string().min(1)).min(1), beforeItemId: z.string().nullable().default(null) }).strict(),
    z.object({ moved: z.number().int().nonnegative() }),
  ),
  'items:setVerdict': invoke(z.object({ itemId: z.string().min(1), verdict: VerdictSchema }).strict(), ItemViewSchema),
  /** Re-run items (typically rejected ones) with changed parameters, as a new batch. */
  'items:rerun': invoke(
    z.object({ itemIds: z.array(z.string().min(1)).min(1), parameters: WorkflowParametersSchema }).strict(),
    BatchSummarySchema,
  ),
} as const;
