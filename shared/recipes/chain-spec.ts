import type { BatchSpec, BatchSpecInput } from '../engine/model';
import type { WorkflowDetail } from '../service/model';
import type { Recipe } from './recipe';

// A chain recipe as batches (issue 32 #3): one batch per step, each its own claims and done-ledger entries, so a
// crash or Ctrl-C resumes at the first unfinished step and no step is paid twice. Step 1 is the recipe's own batch
// (what `recipeRunSpec` makes) with its output turned into the intermediate one; step n+1's inputs are step n's saved
// results, each mirrored under its original's sub-folder. Only the last step makes the recipe's deliverables.
// Pure: the caller resolves folders, reads workflows and lists the results.

/** How a step before the last saves its result: full quality, the original's format and metadata, named as the photo. */
export const INTERMEDIATE_NAMING = '{name}{ext}';
export const INTERMEDIATE_QUALITY = 100;

/** The folder a kept intermediate step's results go to, under the output folder. */
export const keptStepFolderName = (step: number): string => `step-${step}`;

export interface ChainContext {
  /** This run of the chain: every step's batch carries it. */
  chainId: string;
  /** Every step's workflow, in order (step 1 is the recipe's own). */
  workflows: WorkflowDetail[];
  /** Where step `n` (before the last) saves its results. */
  stepFolder: (step: number) => string;
}

/** Step `step`'s inputs: the previous step's results, each with its original's sub-folder. */
export interface StepInputs {
  files: { path: string; relDir: string }[];
}

/**
 * The batch spec of step `step` (1-based). `first` is the recipe's own spec (step 1 as a one-step recipe would run,
 * output folder resolved): its output and deliverables are what the last step makes; its budget, job, client,
 * priority and recipe mark hold for every step.
 */
export function chainStepSpec(first: BatchSpec, recipe: Pick<Recipe, 'steps' | 'keepSteps'>, context: ChainContext, step: number,
  inputs: StepInputs | null, budgetLeft: number | null): BatchSpecInput {
  const steps = recipe.steps.length + 1;
  const last = step === steps;
  const chain = { id: context.chainId, step, steps, names: context.workflows.map((w) => w.name), keep: recipe.keepSteps };
  const later = step > 1 ? recipe.steps[step - 2]! : null;
  const workflow = context.workflows[step - 1]!;
  const imageField = later ? later.imageField ?? workflow.inputSchema.imageFields[0]?.id : first.inputs.imageField;
  const spec: BatchSpecInput = {
    ...first,
    workflowId: workflow.id,
    parameters: later ? later.parameters : first.parameters,
    inputs: inputs
      ? { paths: inputs.files.map((f) => f.path), recursive: false, mappings: [], imageField, relDirs: Object.fromEntries(inputs.files.map((f) => [f.path, f.relDir])) }
      // Step 1 saves elsewhere than the chain's output folder: that folder (inside the photos' one by default) is
      // still never searched, or a run again would price the last run's results as new photos.
      : { ...first.inputs, exclude: [...(first.inputs.exclude ?? []), first.output.outputFolder].filter(Boolean) },
    budget: budgetLeft,
    // A trial picks its photos at step 1; the later steps take what it made: the chain is tried on those photos.
    tryFirst: step === 1 ? first.tryFirst : null,
    trialRest: null,
    chain,
  };
  if (last) return spec;
  return {
    ...spec,
    output: {
      ...first.output, outputFolder: context.stepFolder(step), folder: '', namingTemplate: INTERMEDIATE_NAMING, collisionPolicy: 'suffix',
      format: 'source', quality: INTERMEDIATE_QUALITY, size: { fit: 'original' }, metadata: 'keep', sidecar: 'none', sidecars: false, watermark: undefined,
    },
    deliverables: [],
  };
}

/** Each step's credits per photo and the chain's: what the estimate prices. */
export function chainCosts(workflows: Pick<WorkflowDetail, 'creditCost'>[]): { perStep: number[]; perPhoto: number } {
  const perStep = workflows.map((w) => w.creditCost);
  return { perStep, perPhoto: perStep.reduce((sum, c) => sum + c, 0) };
}
