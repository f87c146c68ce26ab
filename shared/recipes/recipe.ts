import { z } from 'zod';
import { APP_NAME, APP_VERSION } from '../app-info';
import { utf8Length } from '../naming';
import { WorkflowParametersSchema } from '../service/model';
import { formatZodError, type ParseOutcome } from '../validation';
import { DeliverableSchema, Sha256Schema, defaultDeliverable } from './deliverable';
import { MAX_DELIVERABLES } from '../engine/model';
import { SeenSchemaSchema } from './recipe-seen';
import { ChainStepsSchema } from './chain-step';

export { ChainStepSchema, MAX_CHAIN_STEPS, type ChainStep } from './chain-step';

export { DeliverableSchema, DeliverableSizeSchema, Sha256Schema, WatermarkSchema, WATERMARK_POSITIONS, defaultDeliverable } from './deliverable';
export type { Deliverable, DeliverableSize, Watermark } from './deliverable';

/**
 * The recipe file format this Batchroom reads, at most. A file of a higher version is refused, never half-read. A
 * recipe is written as version 1 unless it is a chain (steps): then 2, so a Batchroom that cannot run chains refuses it
 * as "made by a newer Batchroom" instead of running its first step alone.
 */
export const RECIPE_VERSION = 2;
/** The version a recipe is written as: the lowest that holds everything it says. */
export const recipeVersionFor = (recipe: Pick<Recipe, 'steps'>): 1 | 2 => (recipe.steps.length > 0 ? 2 : 1);
/** Says what the file is, so a random JSON file is told apart from a damaged recipe. */
export const RECIPE_KIND = 'batchroom-recipe';
/** The name an exported recipe gets: `<name>.batchroom-recipe.json`. */
export const RECIPE_FILE_SUFFIX = '.batchroom-recipe.json';
export const MAX_RECIPE_NAME_LENGTH = 80;
/** A name becomes a file name (`<name>.batchroom-recipe.json`): file systems take 255 bytes. */
const MAX_RECIPE_NAME_BYTES = 200;
export { MAX_DELIVERABLES };

// Characters no file system takes in a name (the name becomes a file name in the state folder and on export).
const FORBIDDEN_NAME_CHARS = /[<>:"|?*]/;
const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Why `name` cannot name a recipe, or null when it can. */
export function recipeNameProblem(name: string): string | null {
  if (name.trim() === '') return 'must not be empty';
  if (name !== name.trim()) return 'must not start or end with a space';
  if (name.length > MAX_RECIPE_NAME_LENGTH) return `must be at most ${MAX_RECIPE_NAME_LENGTH} characters`;
  if (utf8Length(name) > MAX_RECIPE_NAME_BYTES) return 'is too long for a file name (fewer characters, please)';
  if (/[\\/]/.test(name)) return 'must not contain / or \\ (a recipe name is not a path)';
  if (FORBIDDEN_NAME_CHARS.test(name) || hasControlCharacter(name)) return 'must not contain control characters or any of < > : " | ? *';
  if (name.startsWith('.') || name.endsWith('.')) return 'must not start or end with a dot';
  if (WINDOWS_DEVICE_NAMES.test(name)) return `"${name}" is reserved for a device on Windows`;
  return null;
}

/** Names are unique whatever their case: "Portraits" and "portraits" are one recipe (and one file on macOS/Windows). */
export const recipeNameKey = (name: string): string => name.normalize('NFC').toLowerCase();

export const RecipeNameSchema = z.string({ error: 'is required' }).superRefine((name, ctx) => {
  const problem = recipeNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** An extra image every photo is sent with (a style reference, a logo): by path, and by content so a change shows. */
export const FixedImageSchema = z.object({ path: z.string().min(1, 'must name the image file'), sha256: Sha256Schema }).strict();
export type FixedImage = z.infer<typeof FixedImageSchema>;

export const RecipeSchema = z.object({
  kind: z.literal(RECIPE_KIND, { error: `must be "${RECIPE_KIND}"` }),
  version: z.union([z.literal(1), z.literal(2)], { error: `must be 1 or ${RECIPE_VERSION}` }),
  name: RecipeNameSchema,
  workflowId: z.string({ error: 'is required' }).trim().min(1, 'must not be empty'),
  /** Texts, switchSelections and globalOverrides (aspectRatio, imageSize): exactly what a batch spec's parameters are. */
  parameters: WorkflowParametersSchema.strict().default({}),
  /** Image field id → the fixed image sent in it with every photo. */
  fixedImages: z.record(z.string().min(1), FixedImageSchema).default({}),
  /** Credits one photo may cost at most (null: no limit beyond the batch's own budget). */
  budgetPerPhoto: z.number({ error: 'must be a number of credits or null' }).nonnegative('must not be negative').nullable().default(null),
  deliverables: z.array(DeliverableSchema)
    .min(1, 'must list at least one deliverable')
    .max(MAX_DELIVERABLES, `must list at most ${MAX_DELIVERABLES} deliverables`)
    .default(() => [defaultDeliverable()]),
  /**
   * The workflow's credit cost per photo when the recipe was saved (absent: unknown). A run says when it changed and
   * asks before spending (docs/recipes.md). Not part of the fingerprint: it changes nothing sent.
   */
  seenCreditCost: z.number().nonnegative().optional(),
  /** The workflow's field and option ids when the recipe was saved (absent: unknown), to say what changed since. */
  seenSchema: SeenSchemaSchema.optional(),
  /** Chains: steps 2…N, each sent the previous step's result (shared/recipes/chain-step.ts). Empty: one step. */
  steps: ChainStepsSchema,
  /** Chains: also save each intermediate step's result (in `step-<n>` folders under the output folder). */
  keepSteps: z.boolean().default(false),
}).strict().superRefine((recipe, ctx) => {
  if (recipe.version < 2 && recipe.steps.length > 0) ctx.addIssue({ code: 'custom', path: ['version'], message: 'must be 2 for a recipe with steps (a chain)' });
});
export type Recipe = z.infer<typeof RecipeSchema>;
export type RecipeInput = z.input<typeof RecipeSchema>;

/**
 * Reads a recipe (a parsed JSON value) with one readable line per problem, naming the field. The version is looked
 * at first: a file from a newer Batchroom is refused as such, not as a list of fields this one does not know.
 */
export function parseRecipe(input: unknown): ParseOutcome<Recipe> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, message: 'recipe: must be a JSON object' };
  }
  const { kind, version } = input as { kind?: unknown; version?: unknown };
  if (kind === undefined) return { ok: false, message: `recipe: kind is missing: not a ${APP_NAME} recipe file (it says "kind": "${RECIPE_KIND}")` };
  if (typeof version === 'number' && Number.isInteger(version) && version > RECIPE_VERSION) {
    return {
      ok: false,
      message: `recipe: made by a newer ${APP_NAME} (recipe format version ${version}; this ${APP_NAME} ${APP_VERSION} reads version ${RECIPE_VERSION}): update ${APP_NAME} to use it`,
    };
  }
  if (version === undefined) return { ok: false, message: 'recipe: version: is missing (a recipe file says which format version it is)' };
  const result = RecipeSchema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: formatZodError(result.error, 'recipe') };
}

/** Object keys sorted at every level, so a value writes out the same bytes whatever order it was built in. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortedDeep(v)]));
  }
  return value;
}

/**
 * The recipe as its file holds it: pretty JSON, the top level in reading order (what it is, then what it does), every
 * nested object's keys sorted. The same recipe always gives the same bytes: stored, exported and re-exported alike.
 */
export function serializeRecipe(recipe: Recipe): string {
  const ordered = {
    kind: recipe.kind,
    version: recipeVersionFor(recipe),
    name: recipe.name,
    workflowId: recipe.workflowId,
    parameters: sortedDeep(recipe.parameters),
    fixedImages: sortedDeep(recipe.fixedImages),
    budgetPerPhoto: recipe.budgetPerPhoto,
    deliverables: sortedDeep(recipe.deliverables),
    // Absent stays absent (JSON.stringify drops undefined): a recipe saved without the catalog writes the same bytes as before.
    seenCreditCost: recipe.seenCreditCost,
    seenSchema: recipe.seenSchema === undefined ? undefined : sortedDeep(recipe.seenSchema),
    // Written only for a chain: a one-step recipe keeps the bytes (and the version) it always had.
    steps: recipe.steps.length > 0 ? sortedDeep(recipe.steps) : undefined,
    keepSteps: recipe.steps.length > 0 ? recipe.keepSteps : undefined,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** A new recipe from its parts, defaults filled in (throws a readable error for a value the schema refuses). */
export function makeRecipe(input: Omit<RecipeInput, 'kind' | 'version'>): Recipe {
  const outcome = parseRecipe({ kind: RECIPE_KIND, version: (input.steps?.length ?? 0) > 0 ? 2 : 1, ...input });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.value;
}
