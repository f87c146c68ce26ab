import { resolve } from 'node:path';
import { relativeInside } from '../images/output-names';
import { itemsOfBatch } from '../journal/item-pages';
import type { Journal } from '../journal/journal';
import type { ItemRecord } from '../journal/types';

function* sourcePaths(items: Iterable<ItemRecord>): Generator<string> {
  for (const item of items) yield* Object.values(item.sources);
}

/**
 * Per running batch, its source paths inside its output folder: a result is never saved over one of them, whatever
 * the collision policy. Only those can be hit (the namer names files inside the output folder), so only those are
 * kept — usually none, where every source path of a 100k batch took ~15 MB — and only until the batch ends.
 */
export class BatchOriginals {
  private readonly sets = new Map<string, Set<string>>();

  constructor(private readonly journal: Pick<Journal, 'listItems'>) {}

  of(batchId: string, outputFolder: string): Set<string> {
    let set = this.sets.get(batchId);
    if (!set) {
      set = new Set(relativeInside(outputFolder, sourcePaths(itemsOfBatch(this.journal, batchId))).map((rel) => resolve(outputFolder, rel)));
      this.sets.set(batchId, set);
    }
    return set;
  }

  forget(batchId: string): void {
    this.sets.delete(batchId);
  }

  /** Batches with a set, and the paths they hold. */
  sizes(): { originalsBatches: number; originals: number } {
    let originals = 0;
    for (const set of this.sets.values()) originals += set.size;
    return { originalsBatches: this.sets.size, originals };
  }
}
