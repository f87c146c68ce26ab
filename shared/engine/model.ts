import { z } from 'zod';
import { WorkflowParametersSchema } from '../service/model';
import { EncodeOptionsSchema, ExtraDeliverableSchema, MAX_DELIVERABLES, OutputOptionsSchema } from './output-options';

// The output options (formats, colour, metadata, naming, sidecars) live in output-options.ts; re-exported here, where
// the rest of the model is imported from.
export * from './output-options';
export * from './chain-mark';
export * from './estimate-model';
import { ChainMarkSchema } from './chain-mark';

// The engine's public model: what the UI and the CLI see of batches and items. The journal (SQLite) stores more;
// these are the projections that cross the IPC boundary.

/**
 * pending → encoding → submitting → submitted → running → downloading → saved, or failed / cancelled / unknown.
 * `unknown` means "may have been charged": the request may have reached the service but its answer was lost.
 * It is never resubmitted automatically. `skipped` items (duplicates, unsupported files) are kept for the report.
 * Which event moves an item from one state to another, and the groups of states (terminal, in flight…), are
 * item-states.ts: the only place either is written.
 */
export const ITEM_STATES = [
  'pending', 'following', 'encoding', 'submitting', 'submitted', 'running', 'downloading',
  'saved', 'failed', 'cancelled', 'unknown', 'charged-no-result', 'skipped',
] as const;
export const ItemStateSchema = z.enum(ITEM_STATES);
export type ItemState = z.infer<typeof ItemStateSchema>;

export const BATCH_STATES = ['running', 'paused', 'completed', 'cancelled'] as const;

/**
 * `pausedReason` of a batch the engine paused because the service stopped answering. The engine resumes such a batch
 * by itself once a health probe gets through; a user's pause replaces it (and is never resumed automatically).
 */
export const SERVICE_UNREACHABLE = 'service-unreachable';
/** `pausedReason` of a batch the user paused: the one pause nobody needs to be told about (they did it). */
export const PAUSED_BY_USER = 'paused by you: items in flight finish, nothing new starts';
/**
 * Why a paused batch is paused, as a code: exit codes, banners and automatic resumes read it, never the words of
 * `pausedReason` (the human message, which says the same to a person). `user`: Pause; `service-unreachable`: an
 * outage (resumed by itself); `insufficient-credits` and `budget`: money (the CLI exits 4); `unauthorized`: the key
 * was rejected mid-run (exit 3); `output-unwritable`: a paid result could not be written to the output folder (disk
 * full, read-only, gone…): kept, and saved without a new execution once the folder can be written (retried by itself).
 */
export const PAUSE_CODES = ['user', 'service-unreachable', 'insufficient-credits', 'budget', 'unauthorized', 'output-unwritable'] as const;
export const PauseCodeSchema = z.enum(PAUSE_CODES);
export type PauseCode = z.infer<typeof PauseCodeSchema>;
/** A pause: its code, and the message a person reads (`pausedReason`). */
export interface BatchPause {
  code: PauseCode;
  reason: string;
}
export const BatchStateSchema = z.enum(BATCH_STATES);
export type BatchState = z.infer<typeof BatchStateSchema>;

export const VerdictSchema = z.enum(['approved', 'rejected']).nullable();
export type Verdict = z.infer<typeof VerdictSchema>;

/** Files for one item of a multi-image workflow: image field id → local path (or http(s) URL). */
export const ImageMappingSchema = z.record(z.string(), z.string().min(1));

/**
 * A camera RAW and a JPEG of the same name in the same folder are one photo taken twice (RAW+JPEG shooting): it is
 * processed once, from the JPEG (the default: the camera developed it) or from the RAW's preview, or `both` as two.
 */
export const RAW_PAIR_MODES = ['jpeg', 'raw', 'both'] as const;
export const RawPairsSchema = z.enum(RAW_PAIR_MODES);
export type RawPairs = z.infer<typeof RawPairsSchema>;

export const BatchInputsSchema = z.object({
  /** Files and folders; each image file becomes one item, sent under `imageField`. */
  paths: z.array(z.string().min(1)).default([]),
  recursive: z.boolean().default(false),
  /** The image field single files go to; defaults to the workflow's first image field. */
  imageField: z.string().optional(),
  /** Multi-image workflows: one explicit mapping per item. */
  mappings: z.array(ImageMappingSchema).default([]),
  /** Absent: 'jpeg' (the planner's default; optional so stored specs of earlier versions stay valid as they are). */
  rawPairs: RawPairsSchema.optional(),
  /**
   * Hot folders (whose specs always say `rerun`: they asked the done ledger themselves): the files the user asked to
   * process again (reprocess). Only these may pay again for a photo another batch paid for meanwhile.
   */
  payAgain: z.array(z.string()).optional(),
  /**
   * Listed files → the sub-folder each is mirrored under in the output (a chain step's inputs are the previous step's
   * results: they keep the original photo's sub-folder). Absent for a file: '' as for any file given by itself.
   */
  relDirs: z.record(z.string(), z.string()).optional(),
  /** Folders never searched for photos besides the output folder (a chain step's: the chain's final output folder). */
  exclude: z.array(z.string()).optional(),
});
export type BatchInputs = z.infer<typeof BatchInputsSchema>;

export { DEFAULT_OUTPUT_FOLDER_NAME } from './output-defaults';


export const BatchSpecSchema = z.object({
  workflowId: z.string().min(1),
  parameters: WorkflowParametersSchema.default({}),
  inputs: BatchInputsSchema,
  output: OutputOptionsSchema,
  encode: EncodeOptionsSchema.default({ uploadSizePolicy: 'fit', stripMetadata: true }),
  /** Optional cap on credits this batch may spend. */
  budget: z.number().nonnegative().nullable().default(null),
  /**
   * Run photos already done with this workflow and these parameters again (and pay again). Off by default: the done
   * ledger skips them and the estimate reports them. Hot folders set it: they consult the same ledger themselves.
   */
  rerun: z.boolean().default(false),
  /**
   * Try first: run only this many photos, spread across the batch, so the settings can be checked before the rest is
   * paid for. Continuing runs the same spec without it; the done ledger skips the tried photos (no second charge).
   */
  tryFirst: z.number().int().min(1).max(50).nullable().default(null),
  /** Set by the engine on a try-first batch: how many photos the full batch has beyond the tried ones. */
  trialRest: z.number().int().nonnegative().nullable().default(null),
  /** Set by hot folders so results and ledger entries can be traced back. */
  source: z.object({ kind: z.enum(['manual', 'hotFolder', 'cli']), hotFolderId: z.string().optional() }).default({ kind: 'manual' }),
  /**
   * The recipe the batch was made from (shared/recipes): its name and fingerprint (what is paid), written into each
   * result's provenance. Optional: batches without a recipe, and journals written before recipes, have none.
   */
  recipe: z.object({ name: z.string().min(1), fingerprint: z.string().regex(/^[0-9a-f]{64}$/) }).optional(),
  /**
   * Files made from each paid result beyond `output` (a recipe's deliverables 2…N): 1 execution → N files, each
   * named by the one namer and saved by the one atomic saver; nothing more is paid for them.
   */
  deliverables: z.array(ExtraDeliverableSchema).max(MAX_DELIVERABLES - 1, `at most ${MAX_DELIVERABLES} deliverables per batch`).default([]),
  /**
   * An export: results already paid for in batch `batchId`, made again into this batch's deliverables. Such a batch
   * never sends anything to the service (engine/export-again.ts); its items start from the paid results.
   */
  exportOf: z.object({ batchId: z.string().min(1) }).optional(),
  /**
   * One step of a chain (issue 32 #3, main/core/chains): every step of one run is its own batch, with the same `id`.
   * A step before the last saves its results for the next (recording where each came from: journal/chain-links.ts);
   * a step after the first sends each photo as the previous step's result URL, uploading the file only when the
   * service no longer has that result.
   */
  chain: ChainMarkSchema.optional(),
  /** The job and client the batch is for (reports add credits up by them); free text, optional. */
  job: z.string().trim().min(1).max(120).optional(),
  client: z.string().trim().min(1).max(120).optional(),
  /** Queue priority: open batches submit higher first (docs/engine.md "Queue order"); hot folders and --priority set it. */
  priority: z.number().int().min(-100).max(100).default(0),
});
export type BatchSpec = z.infer<typeof BatchSpecSchema>;
export type BatchSpecInput = z.input<typeof BatchSpecSchema>;

export const ItemCountsSchema = z.record(ItemStateSchema, z.number().int().nonnegative());

export const BatchSummarySchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  state: BatchStateSchema,
  /** Why a batch is paused (user request, insufficient credits, budget reached, offline…). */
  pausedReason: z.string().nullable(),
  /** The same as a code (null unless paused): what scripts, exit codes and automatic resumes go by. */
  pauseCode: PauseCodeSchema.nullable().default(null),
  createdAt: z.string(),
  total: z.number().int().nonnegative(),
  counts: ItemCountsSchema,
  /** 0–1 over all items, counting in-flight progress. */
  progress: z.number().min(0).max(1),
  etaMs: z.number().nonnegative().nullable(),
  /** What the batch costs in all (every runnable item). */
  creditCost: z.number().nonnegative(),
  /** What one execution of its workflow costs (a resubmission, a retry). */
  unitCost: z.number().nonnegative(),
  /** A try-first batch: the photos "Continue" would run (null for any other batch). */
  trialRest: z.number().int().nonnegative().nullable().default(null),
  creditsSpent: z.number().nonnegative(),
  budget: z.number().nullable(),
  outputFolder: z.string(),
  /** Its place in the submit queue (engine: always set): priority (higher first), then queueOrder (lower first). */
  priority: z.number().int().optional(),
  queueOrder: z.number().int().optional(),
  /** A chain step's batch: which step of how many (the queue shows chains as steps). */
  chain: ChainMarkSchema.optional(),
});
export type BatchSummary = z.infer<typeof BatchSummarySchema>;

export const ItemViewSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  /** Position in the batch queue (reorderable while pending). */
  position: z.number().int(),
  displayName: z.string(),
  sources: ImageMappingSchema,
  state: ItemStateSchema,
  progress: z.number().min(0).max(100),
  reason: z.string().nullable(),
  executionId: z.string().nullable(),
  outputs: z.array(z.string()),
  creditsCharged: z.number().nonnegative(),
  verdict: VerdictSchema,
  updatedAt: z.string(),
  /** Set when the engine's state move was refused and the item parked: what the user should look at. */
  attention: z.string().nullable().optional(),
  /**
   * Its result is (or will be) the one another batch already paid for (it follows that item's claim): it costs this
   * batch nothing and never sends the photo itself.
   */
  paidElsewhere: z.boolean().optional(),
});
export type ItemView = z.infer<typeof ItemViewSchema>;

/**
 * One terminal outcome of one attempt of an item, from the journal's outcome outbox: every one is delivered once, in
 * `seq` order — unlike the coalesced progress, which shows only the latest state (a failure quickly retried and
 * saved would be seen as saved only). Hosts relay it as `batches:outcome`; the CLI prints finished items from it.
 */
export const ItemOutcomeEventSchema = z.object({
  seq: z.number().int().positive(),
  batchId: z.string(),
  itemId: z.string(),
  displayName: z.string(),
  /** 1 for the item's first outcome; a retried or resubmitted item's next is 2, and so on. */
  attempt: z.number().int().positive(),
  state: ItemStateSchema,
  reason: z.string().nullable(),
  outputs: z.array(z.string()),
  executionId: z.string().nullable(),
  creditsCharged: z.number().nonnegative(),
  recordedAt: z.string(),
});
export type ItemOutcomeEvent = z.infer<typeof ItemOutcomeEventSchema>;

/** The service stopped answering at `since` (epoch ms); the next health probe goes out at `nextTryAt`. */
export const ServiceUnreachableSchema = z.object({
  since: z.number(),
  nextTryAt: z.number().nullable(),
});
export type ServiceUnreachable = z.infer<typeof ServiceUnreachableSchema>;

/** Coalesced engine update: at most ~10 per second, carrying only what changed. */
export const BatchProgressEventSchema = z.object({
  batches: z.array(BatchSummarySchema),
  items: z.array(ItemViewSchema),
  /** Engine-wide state: offline means nothing is sent until the service is reachable again. */
  engine: z.object({ offline: z.boolean(), unreachable: ServiceUnreachableSchema.nullable().optional() }).optional(),
});
export type BatchProgressEvent = z.infer<typeof BatchProgressEventSchema>;
