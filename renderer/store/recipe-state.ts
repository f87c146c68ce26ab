import type { BatchSpecInput } from '../../shared/engine/model';
import type { DeliverableDraft } from '../../shared/ipc/channels/recipes';
import type { Recipe } from '../../shared/recipes/recipe';
import type { RecipePaidParts } from '../../shared/recipes/fingerprint';
import type { WorkflowParameters } from '../../shared/service/model';
import type { UiError } from '../lib/errors';

// The recipes slice's shape (docs/recipes.md, the app): kept beside state.ts so that file only joins it in.

/** The recipe the form was filled from (or is being made into): what the form itself does not hold. */
export interface ActiveRecipe {
  /** Its saved name. */
  name: string;
  workflowId: string;
  /** Its parameters as saved: sent as they are while the form says the same (recipe-form.ts sentParameters). */
  parameters: WorkflowParameters;
  /** Deliverable 1 is the batch's output; the others are `spec.deliverables` (edited in the recipe editor). */
  deliverables: DeliverableDraft[];
  budgetPerPhoto: number | null;
  /** A chain's steps after the first (shared/recipes/chain-step.ts): the app starts one-step recipes only. */
  steps: { workflowId: string }[];
  /** What picking it found: values the workflow no longer accepts (left out of the form), images missing or changed. */
  warnings: string[];
}

/** A try-first batch started from a recipe: what its Continue must still be (the fingerprint of the edit tried). */
export interface TrialRecord {
  name: string;
  workflowId: string;
  fingerprint: string;
  parts: RecipePaidParts;
}

export interface RecipeSlice {
  recipes: Recipe[];
  /** Files in the recipes folder that are not readable recipes (said, never dropped silently). */
  recipeProblems: { file: string; message: string }[];
  recipesLoaded: boolean;
  recipesError: UiError | null;
  activeRecipe: ActiveRecipe | null;
  /** batch id → the recipe edit it tried (this session's try-first batches from a recipe). */
  trials: Record<string, TrialRecord>;
  loadRecipes(): Promise<void>;
  /** Saves the form (workflow, texts, switches, overrides, fixed images) with the active recipe's deliverables and budget. */
  saveRecipe(name: string, options?: { replace?: boolean }): Promise<UiError | null>;
  /** Fills the form from a saved recipe, leaving out (and saying) what the workflow no longer accepts. */
  pickRecipe(name: string): Promise<UiError | null>;
  clearRecipe(): void;
  setRecipeDeliverables(deliverables: DeliverableDraft[], budgetPerPhoto: number | null): void;
  duplicateRecipe(from: string, to: string): Promise<UiError | null>;
  renameRecipe(from: string, to: string): Promise<UiError | null>;
  deleteRecipe(name: string): Promise<UiError | null>;
  /** The recipe file's text and name, to hand to the user as a download. */
  exportRecipe(name: string): Promise<{ fileName: string; text: string } | null>;
  importRecipe(text: string, options?: { name?: string; replace?: boolean }): Promise<UiError | null>;
  /** The spec with the active recipe's deliverables (1 = output, the others = deliverables); unchanged without one. */
  applyRecipeOutput(spec: BatchSpecInput): BatchSpecInput;
  /** Before Start: the spec stamped with the recipe's name and the fingerprint main computes of what is sent. */
  stampRecipe(spec: BatchSpecInput, estimateCostPerItem: number | null): Promise<BatchSpecInput>;
  noteTrial(batchId: string, spec: BatchSpecInput): void;
  /**
   * What changed since a recipe's trial (the saved recipe, the form holding it), in words, none when nothing did;
   * null for a batch not made from a recipe.
   */
  trialChanges(batchId: string): Promise<{ name: string; changes: string[] } | null>;
}
