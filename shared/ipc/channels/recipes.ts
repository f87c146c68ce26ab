import { z } from 'zod';
import { WatermarkSchema } from '../../engine/deliverable-options';
import { ExtraDeliverableSchema, MAX_DELIVERABLES } from '../../engine/output-options';
import { RecipeNameSchema, RecipeSchema } from '../../recipes/recipe';
import { WorkflowParametersSchema } from '../../service/model';
import { invoke } from '../contract-kit';

// Recipes in the app (docs/recipes.md): the same store the CLI uses, behind main. Every content hash (fixed images,
// watermarks) and the fingerprint (it names the service account) is computed in main, never by the renderer.

// Names are recipe names (no separators, no `..`): the store makes a file name of them.
const NameRef = z.object({ name: RecipeNameSchema }).strict();

/** A recipe file is a few KB (main/core/recipes/recipe-files.ts MAX_RECIPE_FILE_BYTES). */
export const MAX_RECIPE_TEXT_CHARS = 1024 * 1024;

/** A watermark as the form names it: by path; main reads the file and records its hash. */
const WatermarkDraftSchema = WatermarkSchema.extend({ sha256: WatermarkSchema.shape.sha256.optional() });
export const DeliverableDraftSchema = ExtraDeliverableSchema.extend({ watermark: WatermarkDraftSchema.optional() });
export type DeliverableDraft = z.input<typeof DeliverableDraftSchema>;

/** Image field id → the path of the file sent in it with every photo (main hashes it). */
const FixedImagePathsSchema = z.record(z.string().min(1), z.string().min(1));

/** What the form holds: the recipe's values with images by path only. */
export const RecipeDraftSchema = z.object({
  name: RecipeNameSchema,
  workflowId: z.string().min(1),
  parameters: WorkflowParametersSchema.default({}),
  fixedImages: FixedImagePathsSchema.default({}),
  budgetPerPhoto: z.number().nonnegative().nullable().default(null),
  deliverables: z.array(DeliverableDraftSchema).min(1).max(MAX_DELIVERABLES),
}).strict();
export type RecipeDraft = z.input<typeof RecipeDraftSchema>;

/** An image a recipe names, as found on this computer (main/core/recipes/recipe-images.ts). */
export const RecipeImageCheckSchema = z.object({
  where: z.string(),
  path: z.string(),
  expected: z.string(),
  status: z.enum(['ok', 'missing', 'changed', 'unreadable']),
  actual: z.string().optional(),
  message: z.string().optional(),
});
export type RecipeImageCheckView = z.infer<typeof RecipeImageCheckSchema>;

/** What is paid, part by part (shared/recipes/fingerprint.ts recipePaidParts). */
export const RecipePaidPartsSchema = z.object({
  workflowId: z.string(),
  parametersHash: z.string(),
  fixedImages: z.record(z.string(), z.string()),
  account: z.string(),
  steps: z.array(z.object({ workflowId: z.string(), parametersHash: z.string(), imageField: z.string().nullable() })).optional(),
});

const RecipeWithImages = z.object({ recipe: RecipeSchema, images: z.array(RecipeImageCheckSchema) });

export const recipeChannels = {
  /** The saved recipes, and every file in the recipes folder that is not a readable recipe (never dropped silently). */
  'recipes:list': invoke(
    z.object({}).strict(),
    z.object({ recipes: z.array(RecipeSchema), problems: z.array(z.object({ file: z.string(), message: z.string() })) }),
  ),
  /** One recipe (any case), its images checked against their saved hashes. */
  'recipes:get': invoke(NameRef, RecipeWithImages),
  /** Saves the form as a recipe: a new name, or (`replace`) over the recipe of that name. Images are hashed here. */
  'recipes:save': invoke(RecipeDraftSchema.extend({ replace: z.boolean().default(false) }), RecipeWithImages),
  'recipes:duplicate': invoke(z.object({ from: RecipeNameSchema, to: RecipeNameSchema }).strict(), RecipeSchema),
  'recipes:rename': invoke(z.object({ from: RecipeNameSchema, to: RecipeNameSchema }).strict(), RecipeSchema),
  'recipes:delete': invoke(NameRef, z.object({ deleted: z.string() })),
  /** The recipe's file (the same bytes `batchroom recipes export` writes) and the name to save it under. */
  'recipes:export': invoke(NameRef, z.object({ fileName: z.string(), text: z.string() })),
  /** A recipe file the user picked or dropped, as text: checked, then saved (nothing is written for a bad file). */
  'recipes:import': invoke(
    z.object({ text: z.string().max(MAX_RECIPE_TEXT_CHARS), name: RecipeNameSchema.optional(), replace: z.boolean().default(false) }).strict(),
    RecipeWithImages.extend({ replaced: z.boolean() }),
  ),
  /**
   * The fingerprint of an edit (what is paid: workflow, parameters, fixed images' contents, the account in use): of a
   * saved recipe (`name`), or of the form's values. A batch from a recipe carries the fingerprint of what is sent.
   */
  'recipes:fingerprint': invoke(
    z.union([
      NameRef,
      z.object({ workflowId: z.string().min(1), parameters: WorkflowParametersSchema.default({}), fixedImages: FixedImagePathsSchema.default({}) }).strict(),
    ]),
    z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/), parts: RecipePaidPartsSchema }),
  ),
  /**
   * The recipe a batch was made from, as its spec keeps it (name, fingerprint of what was paid), or null: Continue
   * after a trial compares it with the recipe as saved now, across restarts of the app.
   */
  'recipes:ofBatch': invoke(
    z.object({ batchId: z.string().min(1) }).strict(),
    z.object({
      recipe: z.object({ name: z.string(), fingerprint: z.string() }).nullable(),
      /** What the batch sends (its spec's workflow and parameters): the CLI's Continue names the fields that changed. */
      sent: z.object({ workflowId: z.string(), parameters: WorkflowParametersSchema }).nullable().optional(),
    }),
  ),
  /**
   * Which of these files a chain step saved as its result (journal/chain-links.ts): only those go on to the next step.
   * A file an ordinary batch made of the same edit is a deliverable (resized, converted), not the step's result.
   */
  'recipes:chainLinked': invoke(z.object({ paths: z.array(z.string().min(1)).max(10_000) }).strict(), z.object({ linked: z.array(z.string()) })),
} as const;
