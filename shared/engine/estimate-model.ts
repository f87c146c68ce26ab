import { z } from 'zod';
import { ColourPolicySchema, DeliverableSizeSchema, MetadataPolicySchema, OutputFormatSchema } from './output-options';

// What an estimate says before anything is spent (re-exported by model.ts, where the rest of the model is imported
// from): the photos it prices, skips, finds done or already running, and what the files will be.

export const SkippedInputSchema = z.object({
  path: z.string(),
  reason: z.string(),
  /** Photos left in sub-folders of this input folder because recursion is off (one grouped entry per folder). */
  subfolders: z.object({ photos: z.number().int().positive(), folders: z.number().int().positive() }).optional(),
  /** The other half of a RAW+JPEG pair, processed once from its partner (rawPairs). */
  rawPair: z.boolean().optional(),
  /** Maybe charged before and skipped for it: each surface names its own way to pay for it again (skip-text.ts). */
  payAgain: z.boolean().optional(),
});
export type SkippedInput = z.infer<typeof SkippedInputSchema>;

/** A photo the done ledger knows: when it was done and the results that run saved. */
export const DoneInputSchema = z.object({ path: z.string(), doneAt: z.string(), outputs: z.array(z.string()) });
export type DoneInput = z.infer<typeof DoneInputSchema>;

/**
 * A photo another batch is already sending (or has paid for and not saved yet): this batch takes that result into
 * its own output plan and pays nothing for it (shared/engine/claim-states.ts).
 */
export const FollowingInputSchema = z.object({
  path: z.string(),
  /** The batch that holds it, when it is an item of an open batch (null: only its claim is left, e.g. a paid result not saved). */
  batchId: z.string().nullable(),
  /** Already accepted by the service (paid); false: about to be sent by that batch. */
  paid: z.boolean(),
});
export type FollowingInput = z.infer<typeof FollowingInputSchema>;

export const BatchEstimateSchema = z.object({
  workflowId: z.string(),
  itemCount: z.number().int().nonnegative(),
  skipped: z.array(SkippedInputSchema),
  duplicates: z.array(z.object({ path: z.string(), duplicateOf: z.string() })),
  costPerItem: z.number().nonnegative(),
  totalCost: z.number().nonnegative(),
  /** Live API credit balance when it could be read, else null (offline). */
  balance: z.number().nullable(),
  fitsBalance: z.boolean(),
  fitsBudget: z.boolean(),
  /** The names the first few items will really be written under (collision suffix included), from the one namer. */
  namingPreview: z.array(z.object({ source: z.string(), output: z.string(), note: z.string().optional() })),
  /** Items the naming preview does not list ("…and 10 more"). */
  namingPreviewMore: z.number().int().nonnegative().default(0),
  /** Done before with this workflow and these parameters: skipped (not in itemCount), or run again when `rerun`. */
  alreadyDone: z.array(DoneInputSchema).default([]),
  /** Done before, but every result that run saved is gone: offered again, counted in itemCount and totalCost. */
  resultsGone: z.array(DoneInputSchema).default([]),
  /** Already running (or paid, not saved) in another batch: counted in itemCount, not in totalCost. */
  following: z.array(FollowingInputSchema).default([]),
  /** Whether alreadyDone photos are run again (the spec's `rerun`). */
  rerun: z.boolean().default(false),
  /** Where the results will be saved (the default folder next to the photos already resolved). */
  outputFolder: z.string().default(''),
  /** A try-first estimate: the photos tried now, and those left for "Continue" (each costs costPerItem). */
  trial: z.object({ tried: z.number().int().nonnegative(), rest: z.number().int().nonnegative() }).optional(),
  /** What the result files will be: size, format(s), colour, metadata (described by shared/engine/result-file.ts). */
  resultFile: z.object({
    longEdge: z.number().int().positive(),
    largestOriginalEdge: z.number().int().positive().nullable(),
    formats: z.array(z.enum(['jpeg', 'png', 'tiff', 'webp'])),
    colour: ColourPolicySchema,
    metadata: MetadataPolicySchema,
  }).optional(),
  /**
   * The files each paid result becomes when the batch makes more than one (its output, then spec.deliverables):
   * each one's folder under outputFolder ({job} and {client} filled in), format, size and whether it is watermarked.
   */
  deliverables: z.array(z.object({
    folder: z.string(), format: OutputFormatSchema, size: DeliverableSizeSchema, watermark: z.boolean(),
  })).default([]),
});
export type BatchEstimate = z.infer<typeof BatchEstimateSchema>;
