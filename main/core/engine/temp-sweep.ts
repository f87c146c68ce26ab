import { removeTempFiles } from '../images/save';
import type { Journal } from '../journal/journal';
import { itemsOfBatch } from '../journal/item-pages';
import { dirname, resolve } from 'node:path';
import { deliverableRelPath, deliverablesOf } from '../../../shared/engine/deliverables';

// What a kill (or a power cut) left in output folders: `.batchroom-*` temps of downloads, finishing, ExifTool,
// sidecars and probes. Every start removes them from the output folder (and each sub-folder the batch writes) of
// every batch that is not completed, and of batches completed in the last week — not only the folders of unfinished
// items: a temp from a save that failed once can sit beside results that were all saved later. Runs in recovery,
// after interrupted placements were finished (so no temp still needed is there) and before anything is written.

/** Completed batches are swept for this long after their last change. */
export const RECENT_BATCH_MS = 7 * 24 * 60 * 60 * 1000;

/** Folders the journal's open and recent batches write into. */
export function outputFoldersToSweep(journal: Journal, now: Date): Set<string> {
  const folders = new Set<string>();
  for (const batch of journal.listBatches()) {
    if (batch.state === 'completed' && now.getTime() - Date.parse(batch.updatedAt) > RECENT_BATCH_MS) continue;
    const relDirs = new Set<string>(['']);
    for (const item of itemsOfBatch(journal, batch.id)) {
      relDirs.add(item.relDir);
      // Where its files went (a deliverable's folder named after the capture date is known only from them).
      for (const output of item.outputs) folders.add(dirname(output));
    }
    // Every deliverable's folder (tokens filled in) under the output folder, then each item's own sub-folder.
    for (const { folder } of deliverablesOf(batch.spec)) {
      for (const relDir of relDirs) folders.add(resolve(batch.outputFolder, ...deliverableRelPath(folder, { job: batch.spec.job, client: batch.spec.client }, relDir).split('/')));
    }
  }
  return folders;
}

/** Removes the leftover temps; how many. */
export async function sweepOutputTemps(journal: Journal, now: Date): Promise<number> {
  let removed = 0;
  for (const folder of outputFoldersToSweep(journal, now)) removed += await removeTempFiles(folder);
  return removed;
}
