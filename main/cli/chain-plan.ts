import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
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
  /** Photos done before at a step outside this chain: they stop there (nextInputs' notChained, every step's). */
  notChained: string[];
}

/** The sub-folder a photo is mirrored under: its place below an input folder (recursive), or the one it was given. */
export function relDirOf(spec: BatchSpec | BatchSpecInput, source: string): string {
  const given = spec.inputs.relDirs?.[source];
  if (given !== undefined) return given;
  if (!spec.inputs.recursive) return '';
  for (const root of spec.inputs.paths ?? []) {
    const rel = relative(root, dirname(source));
    // Not below this root: another drive (Windows gives an absolute path then), or a parent.
    if (isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) continue;
    return rel === '.' ? '' : rel;
  }
  return '';
}

/** What a finished step hands on: the next step's inputs, and the photos that cannot go on (with why). */
export interface NextInputs extends StepInputs {
  /** Photos done at this step before, but not by a chain: their saved files are deliverables, not the step's result. */
  notChained: string[];
}

/**
 * The results a step made, or made before (done), as the next step's inputs. A photo this step ran (a --rerun too)
 * goes on with what it made now; a photo done before goes on only with files a chain step saved as its result
 * (`recipes:chainLinked`): one an ordinary batch made of the same edit is a converted deliverable, never sent on.
 */
export async function nextInputs(call: CallChannel, spec: BatchSpecInput, field: string, items: ItemView[], estimate: BatchEstimate): Promise<NextInputs> {
  const files: StepInputs['files'] = [];
  const seen = new Set<string>();
  const add = (source: string, outputs: string[]) => {
    for (const path of outputs) {
      if (seen.has(path) || !existsSync(path)) continue;
      seen.add(path);
      files.push({ path, relDir: relDirOf(spec, source) });
    }
  };
  const sourceOf = (item: ItemView) => item.sources[field] ?? Object.values(item.sources)[0] ?? '';
  const ranNow = new Set(items.filter((item) => item.state !== 'skipped').map(sourceOf));
  for (const item of items) if (item.state === 'saved') add(sourceOf(item), item.outputs);
  // With --rerun every photo done before is run again (an item of this step): none goes on with its old files.
  const before = spec.rerun ? [] : estimate.alreadyDone.filter((done) => !ranNow.has(done.path));
  const candidates = before.flatMap((done) => done.outputs);
  const linked = new Set(candidates.length > 0 ? (await call('recipes:chainLinked', { paths: candidates })).linked : []);
  const notChained: string[] = [];
  for (const done of before) {
    const usable = done.outputs.filter((path) => linked.has(path));
    if (usable.length === 0) notChained.push(done.path);
    else add(done.path, usable);
  }
  return { files, notChained };
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
  let known: NextInputs = await nextInputs(call, step1, field, [], firstEstimate);
  const notChained = [...known.notChained];
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
      // The last step's files are the deliverables: nothing goes on from them.
      if (step < perStep.length) {
        known = await nextInputs(call, spec, spec.inputs.imageField ?? field, [], estimate);
        notChained.push(...known.notChained);
      }
    }
    steps.push({ step, workflowId: context.workflows[step - 1]!.id, name: context.workflows[step - 1]!.name, photos, credits, upTo });
  }
  return { steps, totalCost: steps.reduce((sum, s) => sum + s.credits, 0), perPhoto, notChained };
}
