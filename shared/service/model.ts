import { z } from 'zod';

// Batchroom's own normalized model of the v1 service. The wire may use other names and envelopes; the service
// client (main/core/service/) maps every wire shape onto these schemas, so nothing downstream sees wire quirks.

export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '9:16', '16:9', '21:9'] as const;
export const IMAGE_SIZES = ['1K', '2K'] as const;
/** The long edge of the service's output for each size (the spec's 1K and 2K), in pixels. */
export const IMAGE_SIZE_LONG_EDGE: Readonly<Record<(typeof IMAGE_SIZES)[number], number>> = { '1K': 1024, '2K': 2048 };
/** The size the service makes when the request names none: what the app's "Default" and the CLI's no `--size` mean. */
export const DEFAULT_IMAGE_SIZE: (typeof IMAGE_SIZES)[number] = '1K';

export const AspectRatioSchema = z.enum(ASPECT_RATIOS, {
  error: (issue) => `must be one of ${ASPECT_RATIOS.join(', ')} (got ${JSON.stringify(issue.input)})`,
});
export const ImageSizeSchema = z.enum(IMAGE_SIZES, {
  error: (issue) => `must be one of ${IMAGE_SIZES.join(', ')} (got ${JSON.stringify(issue.input)})`,
});

const IdSchema = z.string({ error: 'is required' }).trim().min(1, 'must not be empty');

export const CreditAmountSchema = z
  .number({ error: 'must be a number of credits' })
  .finite('must be a finite number')
  .nonnegative('must not be negative');

export const FieldOptionSchema = z.object({
  id: IdSchema,
  label: z.string(),
});

export const ImageFieldSchema = z.object({
  id: IdSchema,
  label: z.string(),
  description: z.string().optional(),
  required: z.boolean().default(true),
});

export const TextFieldSchema = z.object({
  id: IdSchema,
  label: z.string(),
  description: z.string().optional(),
  required: z.boolean().default(false),
  /** When present, the value sent must be one of these option ids. */
  presetOptions: z.array(FieldOptionSchema).min(1, 'must list at least one option').optional(),
  defaultValue: z.string().optional(),
  maxLength: z.number().int().positive().optional(),
});

export const SwitchFieldSchema = z.object({
  id: IdSchema,
  label: z.string(),
  description: z.string().optional(),
  required: z.boolean().default(false),
  options: z.array(FieldOptionSchema).min(1, 'must list at least one option'),
  /** false: pick at most one option (a selection); true: any subset (switches). */
  multiple: z.boolean().default(true),
  /** Bounds on how many options may be chosen, when the service states them. */
  minSelections: z.number().int().nonnegative().optional(),
  maxSelections: z.number().int().positive().optional(),
  defaultSelection: z.array(z.string()).optional(),
});

export const InputSchemaSchema = z.object({
  imageFields: z.array(ImageFieldSchema),
  textFields: z.array(TextFieldSchema),
  switchFields: z.array(SwitchFieldSchema),
});

export const WorkflowSummarySchema = z.object({
  id: IdSchema,
  name: z.string().min(1, 'must not be empty'),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  creditCost: CreditAmountSchema,
});

/**
 * The whole catalog as listed. `warning` is set when the listing stopped while the service said more workflows exist
 * (a page limit, a repeated page or cursor, a next page on another host): the list is then known to be partial.
 */
export const WorkflowCatalogSchema = z.object({
  workflows: z.array(WorkflowSummarySchema),
  warning: z.string().optional(),
});

export const WorkflowDetailSchema = WorkflowSummarySchema.extend({
  inputSchema: InputSchemaSchema,
});

export const GlobalOverridesSchema = z.object({
  aspectRatio: AspectRatioSchema.optional(),
  imageSize: ImageSizeSchema.optional(),
});

/** An image input: an http(s) URL the service downloads itself, or a base64 data URL. */
export const ImageInputSchema = z
  .string()
  .refine((v) => /^https?:\/\//i.test(v) || /^data:[\w.+-]+\/[\w.+-]+;base64,/i.test(v), {
    message: 'must be an http(s) URL or a base64 data URL',
  });

export const ExecuteRequestSchema = z.object({
  images: z
    .record(z.string(), ImageInputSchema)
    .refine((images) => Object.keys(images).length > 0, { message: 'must name at least one image field' }),
  texts: z.record(z.string(), z.string()).optional(),
  switchSelections: z.record(z.string(), z.array(z.string())).optional(),
  globalOverrides: GlobalOverridesSchema.optional(),
});

export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const ExecutionStatusSchema = z.enum(EXECUTION_STATUSES);
export const TERMINAL_STATUSES: ReadonlySet<ExecutionStatus> = new Set(['completed', 'failed', 'cancelled']);

export const ExecuteAcceptedSchema = z.object({
  executionId: IdSchema,
});

export const ExecutionSchema = z
  .object({
    id: IdSchema,
    status: ExecutionStatusSchema,
    progress: z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100'),
    resultUrls: z.array(z.string().url('must be a URL')).default([]),
    /** The service's label for each result (a look's name), in resultUrls order; null where it gave none. */
    resultLabels: z.array(z.string().nullable()).optional(),
    error: z.string().optional(),
  })
  .refine((e) => e.status !== 'completed' || e.resultUrls.length > 0, {
    message: 'a completed execution must carry at least one result URL',
    path: ['resultUrls'],
  });

export const WebCreditSchema = z.object({
  label: z.string(),
  credits: z.number().finite(),
});

export const BalanceSchema = z.object({
  apiCredits: z.number({ error: 'must be a number of credits' }).finite(),
  webCredits: z.object({
    total: z.number().finite(),
    breakdown: z.array(WebCreditSchema),
  }),
});

export type AspectRatio = z.infer<typeof AspectRatioSchema>;
export type ImageSize = z.infer<typeof ImageSizeSchema>;
export type FieldOption = z.infer<typeof FieldOptionSchema>;
export type ImageField = z.infer<typeof ImageFieldSchema>;
export type TextField = z.infer<typeof TextFieldSchema>;
export type SwitchField = z.infer<typeof SwitchFieldSchema>;
export type InputSchema = z.infer<typeof InputSchemaSchema>;
export type WorkflowSummary = z.infer<typeof WorkflowSummarySchema>;
export type WorkflowCatalog = z.infer<typeof WorkflowCatalogSchema>;
export type WorkflowDetail = z.infer<typeof WorkflowDetailSchema>;
export type GlobalOverrides = z.infer<typeof GlobalOverridesSchema>;
export type ExecuteRequest = z.infer<typeof ExecuteRequestSchema>;
export type ExecutionStatus = z.infer<typeof ExecutionStatusSchema>;
export type ExecuteAccepted = z.infer<typeof ExecuteAcceptedSchema>;
export type Execution = z.infer<typeof ExecutionSchema>;
export type Balance = z.infer<typeof BalanceSchema>;

/** Parameters of an execution other than the images: what a batch applies to every item. */
export const WorkflowParametersSchema = ExecuteRequestSchema.omit({ images: true });
export type WorkflowParameters = z.infer<typeof WorkflowParametersSchema>;
