import { removeTempFiles } from '../images/save';
import type { Journal } from '../journal/journal';
import { dirname, resolve } from 'node:path';
import { deliverablesOf, resolveDeliverableFolder } from '../../../shared/engine/deliverables';
import { safeRelDir } from '../../../shared/naming';

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
    for (let offset = 0; ; offset += 1000) {
      const page = journal.listItems({ batchId: batch.id, offset, limit: 1000 });
      for (const item of page.items) {
        relDirs.add(item.relDir);
        // Where its files went (a deliverable's folder named after the capture date is known only from them).
        for (const output of item.outputs) folders.add(dirname(output));
      }
      if (page.items.length < 1000) break;
    }
    // Every deliverable's folder (tokens filled in) under the output folder, then each item's own sub-folder.
    const bases = deliverablesOf(batch.spec).map((d) => resolveDeliverableFolder(d.folder, { job: batch.spec.job, client: batch.spec.client }));
    for (const base of new Set(bases)) {
      for (const relDir of relDirs) folders.add(resolve(batch.outputFolder, ...[base, safeRelDir(relDir)].join('/').split('/')));
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
