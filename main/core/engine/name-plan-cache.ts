import type { PlannedOutput } from '../../../shared/naming';

// Planning a result's name plans the whole folder of its batch (so the answer does not depend on which download
// finished first). Doing that for every result would make saving a batch quadratic, so the plan of a folder is kept
// and reused while what it assumed still holds: the item's extensions, result labels, execution id and position. Anything else
// that changes it (a file someone else wrote meanwhile) shows up as a taken name when the result is placed, and
// the folder is planned again.

export interface PlannedItemNames {
  outputs: PlannedOutput[];
  /** What the plan assumed for this item. */
  exts: string[];
  /** The service's labels of the item's results (known once it completed; results are named after them). */
  labels: (string | null)[];
  execution: string | null;
  position: number;
}

const MAX_FOLDERS = 32;

export class NamePlanCache {
  private readonly folders = new Map<string, Map<string, PlannedItemNames>>();
  /** Per batch: source extension → extension the service really returned for it (predictions learn from results). */
  private readonly learned = new Map<string, Map<string, string>>();

  private static key(batchId: string, relDir: string): string {
    return `${batchId}\n${relDir}`;
  }

  /** This item's planned name for result `n`, if the folder's plan made the same assumptions. */
  lookup(batchId: string, relDir: string, itemId: string, n: number, assumed: Omit<PlannedItemNames, 'outputs'>): PlannedOutput | null {
    const entry = this.folders.get(NamePlanCache.key(batchId, relDir))?.get(itemId);
    if (!entry) return null;
    const same = entry.exts.length === assumed.exts.length && entry.exts[n] === assumed.exts[n]
      && JSON.stringify(entry.labels) === JSON.stringify(assumed.labels) && entry.execution === assumed.execution && entry.position === assumed.position;
    return same ? entry.outputs[n] ?? null : null;
  }

  store(batchId: string, relDir: string, plan: Map<string, PlannedItemNames>): void {
    const key = NamePlanCache.key(batchId, relDir);
    this.folders.delete(key);
    this.folders.set(key, plan);
    while (this.folders.size > MAX_FOLDERS) this.folders.delete(this.folders.keys().next().value!);
  }

  learn(batchId: string, sourceExt: string, resultExt: string): boolean {
    const map = this.learned.get(batchId) ?? new Map<string, string>();
    this.learned.set(batchId, map);
    const changed = map.get(sourceExt) !== resultExt;
    map.set(sourceExt, resultExt);
    return changed;
  }

  learnedExt(batchId: string, sourceExt: string): string | undefined {
    return this.learned.get(batchId)?.get(sourceExt);
  }
}
