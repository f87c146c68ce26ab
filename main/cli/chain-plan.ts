import { existsSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { BatchEstimate, BatchSpec, BatchSpecInput } from '../../shared/engine/model';
import { chainCosts, chainStepSpec, type ChainContext, type StepInputs } from '../../shared/recipes/chain-spec';
import type { Recipe } from '../../shared/recipes/recipe';
import type { ItemView } from '../../shared/engine/model';
import type { CallChannel } from './session';

// What a chain will cost before anything is spent (issue 32 #3: "the estimate prices each step and the chain"), and
// what each finished step hands to the next. Step 1 is priced exactly (its estimate); a later step is priced exactly
// for the photos whose earlier results already exist (a chain run again, or resumed after Ctrl-C: those files are
// planned like any photo, and the ones it already did cost nothing), and at its full price for the rest ("up to").

export interface StepPrice {
  step: number;
  workflowId: string;
  name: string;
  /** Photos this step will pay for, at most. */
  photos: number;
  credits: number;
  /** Part of it is an upper bound (photos whose earlier step has not run yet). */
  upTo: boolean;
}

export interface ChainPrice {
  steps: StepPrice[];
  totalCost: number;
  perPhoto: number;
}

/** The sub-folder a photo is mirrored under: its place below an input folder (recursive), or the one it was given. */
export function relDirOf(spec: BatchSpec | BatchSpecInput, source: string): string {
  const given = spec.inputs.relDirs?.[source];
  if (given !== undefined) return given;
  if (!spec.inputs.recursive) return '';
  for (const root of spec.inputs.paths ?? []) {
    const rel = relative(root, dirname(source));
    if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..')) return rel === '.' ? '' : rel;
  }
  return '';
}

/** The results a step made or had made before (done), as the next step's inputs; the rest stopped at this step. */
export function nextInputs(spec: BatchSpecInput, field: string, items: ItemView[], estimate: BatchEstimate): StepInputs {
  const files: StepInputs['files'] = [];
  const seen = new Set<string>();
  const add = (source: string, outputs: string[]) => {
    for (const path of outputs) {
      if (seen.has(path) || !existsSync(path)) continue;
      seen.add(path);
      files.push({ path, relDir: relDirOf(spec, source) });
    }
  };
  for (const item of items) if (item.state === 'saved') add(item.sources[field] ?? Object.values(item.sources)[0] ?? '', item.outputs);
  for (const done of estimate.alreadyDone) add(done.path, done.outputs);
  return { files };
}

/** Prices every step (see the file comment), estimating each later step on the earlier results that already exist. */
export async function priceChain(call: CallChannel, first: BatchSpec, recipe: Pick<Recipe, 'steps' | 'keepSteps'>, context: ChainContext,
  firstEstimate: BatchEstimate, field: string): Promise<ChainPrice> {
  const { perStep, perPhoto } = chainCosts(context.workflows);
  const steps: StepPrice[] = [];
  const step1 = chainStepSpec(first, recipe, context, 1, null, null);
  steps.push({ step: 1, workflowId: context.workflows[0]!.id, name: context.workflows[0]!.name, photos: firstEstimate.itemCount, credits: firstEstimate.totalCost, upTo: false });
  // Photos whose next result does not exist yet (made by this run): each pays every later step.
  let unknown = firstEstimate.itemCount;
  let known = nextInputs(step1, field, [], firstEstimate);
  for (let step = 2; step <= perStep.length; step++) {
    const cost = perStep[step - 1]!;
    let photos = unknown;
    let credits = unknown * cost;
    const upTo = unknown > 0;
    if (known.files.length > 0) {
      const spec = chainStepSpec(first, recipe, context, step, known, null);
      const estimate = await call('batches:estimate', spec);
      photos += estimate.itemCount;
      credits += estimate.totalCost;
      unknown += estimate.itemCount;
      known = nextInputs(spec, spec.inputs.imageField ?? field, [], estimate);
    }
    steps.push({ step, workflowId: context.workflows[step - 1]!.id, name: context.workflows[step - 1]!.name, photos, credits, upTo });
  }
  return { steps, totalCost: steps.reduce((sum, s) => sum + s.credits, 0), perPhoto };
}
