import { summariseDeliverables } from '../../../shared/engine/deliverables';
import type { BatchEstimate, BatchSpec } from '../../../shared/engine/model';
import { withinCredits } from '../../../shared/engine/money';
import { AppError } from '../../../shared/errors';
import { namingSourceOf, resultFormatOf } from '../../../shared/naming';
import type { WorkflowDetail } from '../../../shared/service/model';
import { DEFAULT_OUTPUT_SIZE, OUTPUT_LONG_EDGE } from '../images/encode';
import type { FileFacts } from '../images/file-facts';
import { isRawPath } from '../images/raw-preview';
import type { NewItem } from '../journal/types';
import { imageFieldOrder, previewOutputNames, type CaptureReader } from './output-plan';
import type { Plan } from './planner';

// A plan (planner.ts) priced and previewed: the estimate every host shows before anything is spent, and the checks
// a batch must pass to be created.

/** A batch is created only when it has something to run and fits its budget and the balance (checked by the estimate). */
export function refuseUnrunnable(spec: BatchSpec, estimate: BatchEstimate): void {
  if (estimate.itemCount === 0) throw new AppError('validation', 'nothing to process: no usable images in the selection', { skipped: estimate.skipped.length });
  if (!estimate.fitsBudget) {
    throw new AppError('budget_exceeded', `this batch costs ${estimate.totalCost} credits, over its budget of ${spec.budget}`, { required: estimate.totalCost, budget: spec.budget });
  }
  if (!estimate.fitsBalance) {
    throw new AppError('insufficient_credits', `this batch costs ${estimate.totalCost} credits but the balance is ${estimate.balance}`, { required: estimate.totalCost, available: estimate.balance });
  }
}

export async function buildEstimate(
  spec: BatchSpec, workflow: WorkflowDetail, plan: Plan, balance: number | null, at: Date, facts: FileFacts, capture?: CaptureReader,
): Promise<BatchEstimate> {
  // What another batch already holds is paid once, there: it costs this batch nothing.
  const totalCost = (plan.workCount - plan.following.length) * workflow.creditCost;
  // Capture tokens in the template: each source's date and camera are read here, once (cached for the saver).
  const preview = await previewOutputNames(spec, workflow, plan.items, at, 5, capture);
  return {
    workflowId: workflow.id,
    itemCount: plan.workCount,
    skipped: plan.skipped,
    duplicates: plan.duplicates,
    costPerItem: workflow.creditCost,
    totalCost,
    balance,
    fitsBalance: withinCredits(totalCost, balance),
    fitsBudget: withinCredits(totalCost, spec.budget),
    namingPreview: preview.entries,
    namingPreviewMore: preview.more,
    alreadyDone: plan.alreadyDone,
    resultsGone: plan.resultsGone,
    following: plan.following,
    rerun: spec.rerun,
    outputFolder: spec.output.outputFolder,
    ...(plan.trial ? { trial: plan.trial } : {}),
    resultFile: {
      longEdge: OUTPUT_LONG_EDGE[spec.parameters.globalOverrides?.imageSize ?? DEFAULT_OUTPUT_SIZE],
      largestOriginalEdge: await largestEdgeOf(plan.items, facts, spec.source.kind !== 'hotFolder', capture),
      formats: [...new Set(runnableSources(plan.items, workflow).map((source) => resultFormatOf(source, spec.output.format)))].sort(),
      colour: spec.output.colour,
      metadata: spec.output.metadata,
    },
    deliverables: summariseDeliverables(spec),
  };
}

const runnableSources = (items: readonly NewItem[], workflow: WorkflowDetail): string[] =>
  items.filter((i) => i.state === 'pending').map((i) => namingSourceOf(i.sources, imageFieldOrder(workflow)) ?? '');

/**
 * The largest original's long edge, read from the image headers (no pixels decoded); a RAW's is its sensor's full
 * size as ExifTool reads it (what the photographer calls the original), though its embedded preview is what is sent.
 * Null when none could be read.
 */
const EDGE_READS = 8;

async function largestEdgeOf(items: readonly NewItem[], facts: FileFacts, rawsPlanned: boolean, capture?: CaptureReader): Promise<number | null> {
  let largest = 0;
  // What planning learned of each photo moments ago is taken as it is (no stat, no lookup: at 100k photos a second
  // stat of each cost as much as a tenth of the estimate); only the rest (RAWs, a fact planning did not keep) is asked.
  const paths: string[] = [];
  for (const path of new Set(items.filter((i) => i.state === 'pending').flatMap((i) => Object.values(i.sources)))) {
    if (/^https?:\/\//i.test(path)) continue;
    const known = isRawPath(path) ? undefined : facts.knownEdge?.(path);
    if (known === undefined) paths.push(path);
    else if (known > largest) largest = known;
  }
  // Read once: kept after the estimate they would hold up to 15 MB of the CLI's 192 MB heap until the next planning.
  facts.forgetEdges?.(items.flatMap((i) => Object.values(i.sources)));
  // What planning read and no longer holds (a large shoot) is asked of the state folder's store in bulk.
  if (paths.length > 0) facts.prefetch(paths);
  const edgeOf = async (path: string): Promise<number> => {
    // Planning asked the RAW checker already (the file facts keep its answer): a hot folder's RAWs it did not ask.
    const planned = rawsPlanned && isRawPath(path) ? (await facts.raw(path).catch(() => null))?.longEdge : null;
    if (planned) return planned;
    if (isRawPath(path)) return (await capture?.(path).catch(() => null))?.longEdge ?? 0;
    return facts.longEdge(path);
  };
  // EDGE_READS workers take the next path in turn and keep only the largest edge: no promise or edge per photo is
  // held (Math.max(...edges) also threw RangeError above ≈ 125k photos).
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const edge = await edgeOf(paths[next++]!);
      if (edge > largest) largest = edge;
    }
  };
  try {
    await Promise.all(Array.from({ length: EDGE_READS }, worker));
  } finally {
    facts.flush();
  }
  return largest > 0 ? largest : null;
}
