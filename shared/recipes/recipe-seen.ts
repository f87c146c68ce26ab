import { z } from 'zod';
import type { WorkflowDetail } from '../service/model';

// What a recipe saw of its workflow when it was saved: the price and the fields, so a run later can say what changed
// ("price changed 2 → 3 credits per photo", "option 'film' of 'look' is gone", "new required field 'prompt'") before
// anything is spent. Both optional in the file (version stays 1): a recipe saved without the catalog has none, and
// then only today's schema check applies.

/** The workflow's fields as a recipe saw them: ids only (labels change freely and mean nothing to the service). */
export const SeenSchemaSchema = z.object({
  /** Text field ids. */
  texts: z.array(z.string()).default([]),
  /** Switch field id → its option ids. */
  switches: z.record(z.string(), z.array(z.string())).default({}),
  images: z.array(z.string()).default([]),
  /** Ids of the fields (any kind) that were required. */
  required: z.array(z.string()).default([]),
}).strict();
export type SeenSchema = z.infer<typeof SeenSchemaSchema>;

/** The facts of `workflow` a recipe keeps when saved. */
export function seenOf(workflow: WorkflowDetail): { seenCreditCost: number; seenSchema: SeenSchema } {
  const { textFields, switchFields, imageFields } = workflow.inputSchema;
  const sorted = (ids: string[]) => [...ids].sort();
  return {
    seenCreditCost: workflow.creditCost,
    seenSchema: {
      texts: sorted(textFields.map((f) => f.id)),
      switches: Object.fromEntries(switchFields.map((f) => [f.id, sorted(f.options.map((o) => o.id))])),
      images: sorted(imageFields.map((f) => f.id)),
      required: sorted([...textFields, ...switchFields, ...imageFields].filter((f) => f.required).map((f) => f.id)),
    },
  };
}

/** What changed in the workflow since the recipe was saved. */
export interface RecipeDrift {
  /** The price per photo then and now (null: unchanged, or the recipe does not know what it was). */
  price: { from: number; to: number } | null;
  /** One phrase per schema change that touches the recipe: `option 'film' of 'look' is gone`, `new required field 'prompt'`. */
  changes: string[];
}

interface DriftRecipe {
  name: string;
  parameters: { texts?: Record<string, string> | undefined; switchSelections?: Record<string, string[]> | undefined };
  fixedImages: Record<string, unknown>;
  seenCreditCost?: number | undefined;
  seenSchema?: SeenSchema | undefined;
}

/**
 * The recipe's saved facts against the workflow now. `supplied` names fields a flag fills (`--text prompt=…`): a new
 * required field given that way is not a change to stop for. A recipe without saved facts reports only what it can.
 */
export function recipeDrift(recipe: DriftRecipe, workflow: WorkflowDetail, supplied: ReadonlySet<string> = new Set()): RecipeDrift {
  const price = recipe.seenCreditCost !== undefined && recipe.seenCreditCost !== workflow.creditCost ? { from: recipe.seenCreditCost, to: workflow.creditCost } : null;
  const changes: string[] = [];
  const { textFields, switchFields, imageFields } = workflow.inputSchema;
  const switches = new Map(switchFields.map((f) => [f.id, new Set(f.options.map((o) => o.id))]));
  const texts = new Set(textFields.map((f) => f.id));
  for (const [id, chosen] of Object.entries(recipe.parameters.switchSelections ?? {})) {
    const options = switches.get(id);
    if (!options) changes.push(`switch field '${id}' is gone`);
    else for (const option of chosen) if (!options.has(option)) changes.push(`option '${option}' of '${id}' is gone`);
  }
  for (const id of Object.keys(recipe.parameters.texts ?? {})) if (!texts.has(id)) changes.push(`text field '${id}' is gone`);
  const images = new Set(imageFields.map((f) => f.id));
  for (const id of Object.keys(recipe.fixedImages)) if (!images.has(id)) changes.push(`image field '${id}' is gone`);
  const seen = recipe.seenSchema;
  if (seen) {
    const had = new Set([...seen.texts, ...Object.keys(seen.switches), ...seen.images]);
    const wasRequired = new Set(seen.required);
    const given = new Set([...Object.keys(recipe.parameters.texts ?? {}), ...Object.keys(recipe.parameters.switchSelections ?? {}), ...Object.keys(recipe.fixedImages), ...supplied]);
    // Image fields: one of them takes the photos, so a new required image field is a change only when it is new.
    for (const field of [...textFields, ...switchFields]) {
      if (field.required && !wasRequired.has(field.id) && !given.has(field.id)) changes.push(`new required field '${field.id}'`);
    }
    for (const field of imageFields) if (field.required && !had.has(field.id) && !given.has(field.id)) changes.push(`new required image field '${field.id}'`);
  }
  return { price, changes };
}

/** One line for the estimate: `recipe 'X': price changed 2 → 3 credits per photo; option 'film' of 'look' is gone`. */
export function describeDrift(name: string, drift: RecipeDrift): string | null {
  const parts = [
    ...(drift.price ? [`price changed ${drift.price.from} → ${drift.price.to} credits per photo`] : []),
    ...drift.changes,
  ];
  return parts.length > 0 ? `recipe '${name}': ${parts.join('; ')}` : null;
}
