import { canonicalJson } from '../canonical-json';
import type { Recipe } from './recipe';
import { sha256Hex } from './sha256';

/**
 * The parameters hash of a recipe: the same value the engine's done ledger and claims key on
 * (main/core/journal/ledger-key.ts parametersHash), so a recipe and the batches it makes agree on "the same edit".
 */
export function recipeParametersHash(recipe: Pick<Recipe, 'parameters'>): string {
  return sha256Hex(canonicalJson(recipe.parameters));
}

/** What a recipe pays for, part by part: what a changed fingerprint is explained with. */
export interface RecipePaidParts {
  workflowId: string;
  parametersHash: string;
  /** Image field id → content hash of the fixed image sent in it (paths are left out: another machine has others). */
  fixedImages: Record<string, string>;
  /** The service account it is paid from (main/core/service/account-id.ts: a hash of the service URL and key). */
  account: string;
  /** A chain's steps 2…N: each one's workflow, parameters hash and the field the previous result goes to. Absent: one step. */
  steps?: { workflowId: string; parametersHash: string; imageField: string | null }[];
}

export function recipePaidParts(recipe: Pick<Recipe, 'workflowId' | 'parameters' | 'fixedImages'> & Partial<Pick<Recipe, 'steps'>>,
  serviceAccount: string): RecipePaidParts {
  const fixedImages = Object.fromEntries(Object.entries(recipe.fixedImages).map(([field, image]) => [field, image.sha256]));
  const steps = (recipe.steps ?? []).map((step) => ({ workflowId: step.workflowId, parametersHash: recipeParametersHash(step), imageField: step.imageField ?? null }));
  // Left out when there are none: a one-step recipe keeps the fingerprint it had before chains.
  return { workflowId: recipe.workflowId, parametersHash: recipeParametersHash(recipe), fixedImages, account: serviceAccount, ...(steps.length > 0 ? { steps } : {}) };
}

/**
 * The recipe's fingerprint: one hash of what is paid — the workflow, its parameters, the fixed images' contents and
 * the account. The name, the budget and the deliverables are left out: they change no execution (every deliverable
 * is made locally from the one paid result), so renaming a recipe or adding a PNG never looks like a new edit.
 */
export function recipeFingerprint(recipe: Pick<Recipe, 'workflowId' | 'parameters' | 'fixedImages'> & Partial<Pick<Recipe, 'steps'>>, serviceAccount: string): string {
  return sha256Hex(canonicalJson({ fingerprint: 1, ...recipePaidParts(recipe, serviceAccount) }));
}
