import type { Raster } from './imaging/raster';
import type { WorkflowDefinition, WorkflowResult, WorkflowRunInput } from './workflow-types';

// An opt-in cost mode for benches (option `imageWork: 'reused'`, env BATCHROOM_SANDBOX_IMAGE_WORK=reused): the
// sandbox does its image work once per distinct input size and serves those bytes for every later input of that size.
// A bench that runs the sandbox on the same cores as the engine then measures the engine, not a stand-in for the
// service's own GPUs (issue 34 #6). Every input's header is still read (size, pixel limit, a corrupt header refused),
// every request still validated, charged, delayed by the execution's duration and answered as usual; only the pixels
// are the first same-size photo's. The default ('full') decodes and edits every photo.

export type ImageWork = 'full' | 'reused';

export function imageWorkFromEnv(env: Record<string, string | undefined>): ImageWork | undefined {
  const raw = env.BATCHROOM_SANDBOX_IMAGE_WORK;
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'full' && raw !== 'reused') throw new RangeError(`BATCHROOM_SANDBOX_IMAGE_WORK must be "full" or "reused", got "${raw}"`);
  return raw;
}

/** Counts what the mode saved, so a bench can say how many photos really were decoded and edited. */
export interface ReuseCounts { decoded: number; reusedDecodes: number; edited: number; reusedEdits: number }

export class ReusedImages {
  private readonly rasters = new Map<string, Promise<Raster>>();
  private readonly results = new Map<string, Promise<WorkflowResult[]>>();
  readonly counts: ReuseCounts = { decoded: 0, reusedDecodes: 0, edited: 0, reusedEdits: 0 };

  /**
   * The working raster for an input whose header said width × height: the first such input's, decoded once. A decode
   * that failed is forgotten (the next input of that size decodes its own) and the failure is this input's.
   */
  raster(width: number, height: number, decode: () => Promise<Raster>): Promise<Raster> {
    return once(this.rasters, `${width}x${height}`, decode, () => { this.counts.decoded += 1; }, () => { this.counts.reusedDecodes += 1; });
  }

  /** The workflow's results for these parameters and input sizes, computed once (the same bytes served again). */
  run(workflow: WorkflowDefinition, input: WorkflowRunInput, edit: () => Promise<WorkflowResult[]>): Promise<WorkflowResult[]> {
    const sizes = Object.entries(input.images).map(([field, r]) => `${field}:${r.width}x${r.height}`).sort();
    const key = JSON.stringify([workflow.id, sizes, input.texts, input.switches, input.output]);
    return once(this.results, key, edit, () => { this.counts.edited += 1; }, () => { this.counts.reusedEdits += 1; });
  }
}

/** `make()`'s promise kept under `key` and handed out again; a rejected one is forgotten (the next caller makes its own). */
function once<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>, made: () => void, reused: () => void): Promise<T> {
  const known = cache.get(key);
  if (known) {
    reused();
    return known;
  }
  made();
  const promise = make();
  cache.set(key, promise);
  promise.catch(() => cache.delete(key));
  return promise;
}
