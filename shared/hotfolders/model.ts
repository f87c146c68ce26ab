import { z } from 'zod';
import {
  BatchEstimateSchema, CollisionPolicySchema, ColourPolicySchema, DEFAULT_JPEG_QUALITY, JpegQualitySchema, MetadataPolicySchema, OutputFormatSchema, RawPairsSchema,
  SidecarKindSchema, SkippedInputSchema,
} from '../engine/model';
import { WorkflowParametersSchema } from '../service/model';

/** What to do with files already in a folder when it is armed. */
export const ExistingFilesPolicySchema = z.enum(['process', 'skip', 'dry-run']);
export type ExistingFilesPolicy = z.infer<typeof ExistingFilesPolicySchema>;

export const HotFolderConfigSchema = z.object({
  id: z.string().min(1),
  path: z.string().min(1, 'choose a folder to watch'),
  recursive: z.boolean().default(false),
  workflowId: z.string().min(1, 'choose a workflow'),
  parameters: WorkflowParametersSchema.default({}),
  imageField: z.string().optional(),
  outputFolder: z.string().min(1, 'choose an output folder'),
  namingTemplate: z.string().min(1).optional(),
  collisionPolicy: CollisionPolicySchema.default('suffix'),
  /** What results keep of their originals' metadata. */
  metadataPolicy: MetadataPolicySchema.default('keep'),
  outputFormat: OutputFormatSchema.default('source'),
  jpegQuality: JpegQualitySchema.default(DEFAULT_JPEG_QUALITY),
  colourPolicy: ColourPolicySchema.default('srgb'),
  /** A provenance sidecar next to each result (none, json, xmp). */
  sidecar: SidecarKindSchema.default('none'),
  /** A RAW and a JPEG of the same name arriving together are one photo: edited from this half (or both). */
  rawPairs: RawPairsSchema.default('jpeg'),
  /** Move originals into Done/ and Failed/ subfolders after processing. */
  moveOriginals: z.boolean().default(false),
  budget: z.number().nonnegative().nullable().default(null),
  /** Armed: watched and processed. */
  enabled: z.boolean().default(false),
  existingFiles: ExistingFilesPolicySchema.default('dry-run'),
  /** Polling instead of native events, for network shares. */
  polling: z.boolean().default(false),
  /**
   * The folder's name in the studio ledger: the same on every machine that watches this share (each mounts it at
   * its own path). Null: the folder's own name.
   */
  studioFolder: z.string().trim().min(1).max(200).nullable().default(null),
  /** The job and the client the folder's batches are for (their spec's job and client: `batchroom report --by`). */
  job: z.string().trim().min(1).max(120).nullable().default(null),
  client: z.string().trim().min(1).max(120).nullable().default(null),
  /** The queue priority of the folder's batches (their spec's priority): higher is sent first (docs/engine.md). */
  priority: z.number().int().min(-100).max(100).default(0),
  /**
   * Workflow + parameters this folder used before (since the last "reprocess"): a file already processed under any
   * of them counts as done, so editing the workflow never silently re-spends credits on old files.
   */
  previousSettings: z.array(z.object({ workflowId: z.string(), parametersHash: z.string() })).default([]),
  /**
   * The recipe the folder runs (its name; `batchroom watch --recipe FILE` gives a file's path): its workflow,
   * parameters, every deliverable and budget per photo make the folder's batches (docs/recipes.md). Null: none.
   */
  recipe: z.string().trim().min(1).max(1000).nullable().default(null),
  /**
   * A price per photo the user accepted for the recipe though it is not the one the recipe was saved with
   * (`watch --recipe --yes`): the folder sends at it. Any other changed price stops the folder, said in its status.
   */
  recipeAcceptedCost: z.number().nonnegative().nullable().default(null),
});
export type HotFolderConfig = z.infer<typeof HotFolderConfigSchema>;
export type HotFolderConfigInput = z.input<typeof HotFolderConfigSchema>;

export const HotFolderStatusSchema = z.object({
  id: z.string(),
  state: z.enum(['disarmed', 'scanning', 'armed', 'awaiting-review', 'unavailable']),
  /** Why the folder is unavailable or awaiting review. */
  reason: z.string().nullable(),
  processed: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  lastActivityAt: z.string().nullable(),
  /** Existing files held for review (policy 'dry-run') until the folder is armed again. */
  awaitingReview: z.number().int().nonnegative().default(0),
  /** Credits spent by this folder since it was armed (the budget cap applies to it). */
  creditsSpent: z.number().nonnegative().default(0),
  /** Studio mode: off (local journal), claiming through the shared ledger, or paused because it cannot be reached. */
  studio: z.enum(['off', 'connected', 'unreachable']).default('off'),
});
export type HotFolderStatus = z.infer<typeof HotFolderStatusSchema>;

export const HotFolderStateSchema = z.object({ config: HotFolderConfigSchema, status: HotFolderStatusSchema });
export type HotFolderState = z.infer<typeof HotFolderStateSchema>;

/** A photo the dry run would send: `output` is its first file; `outputs` every file it becomes, when more than one. */
const DryRunOutputSchema = z.object({ path: z.string(), output: z.string(), outputs: z.array(z.string()).optional() });

export const DryRunReportSchema = z.object({
  path: z.string(),
  toProcess: z.array(DryRunOutputSchema),
  alreadyDone: z.array(z.object({ path: z.string() })),
  colliding: z.array(DryRunOutputSchema),
  /** The files each photo becomes when more than one (a recipe's deliverables), as the estimate lists them. */
  deliverables: BatchEstimateSchema.shape.deliverables,
  /** Files of an unsupported type and every other path the input policy passes over (photos left in sub-folders, loops). */
  unsupported: z.array(SkippedInputSchema),
  totalCredits: z.number().nonnegative(),
});
export type DryRunReport = z.infer<typeof DryRunReportSchema>;

export const HotFolderActivitySchema = z.object({
  folderId: z.string(),
  kind: z.enum(['detected', 'queued', 'saved', 'failed', 'skipped', 'moved', 'unavailable', 'recovered']),
  path: z.string(),
  message: z.string(),
  at: z.string(),
});
export type HotFolderActivity = z.infer<typeof HotFolderActivitySchema>;
