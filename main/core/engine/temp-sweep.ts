import { readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isTempName } from '../images/save';
import type { Journal } from '../journal/journal';
import { itemsOfBatch } from '../journal/item-pages';
import type { BatchRecord } from '../journal/types';
import { deliverableRelPath, deliverablesOf } from '../../../shared/engine/deliverables';

// What a kill (or a power cut) left in output folders: `.batchroom-*` temps of downloads, finishing, ExifTool,
// sidecars and probes. Every start removes them from the output folder (and each sub-folder the batch writes) of
// every batch that is not completed, and of batches completed in the last week — not only the folders of unfinished
// items: a temp from a save that failed once can sit beside results that were all saved later.
//
// In two parts, so that a restart of a 100k-item batch does not read the batch before its first submit (issue 34 #3):
// - before anything is written (recovery): the batches' own top folders (probes) and the folders of the items being
//   saved — a save runs only for a `downloading` item, journals its temp's path before it creates any file there and
//   clears it once every file of that save is placed or removed, so a kill leaves its temps only in those folders
//   (a few items, read through items_open, not the batch);
// - later, once the first submit has left (or a few seconds passed), every folder the batches write, read a page of
//   items at a time, while this start's own saves run.
//
// Both parts remove a temp only when it is provably a leftover (ownerOfTemp, removeLeftoverTemps). An output folder
// may be shared: a second journal or a studio's other machine may be saving into it right now, and a save of this
// engine runs beside the later part. A result temp's mtime does not tell: the metadata step dates it to the photo's
// capture time (utimes, often years back) before it is placed, so "older than the start" removed a running save's temp.

/** Completed batches are swept for this long after their last change. */
export const RECENT_BATCH_MS = 7 * 24 * 60 * 60 * 1000;

/** A file system's clock may run behind ours (a share): a temp this much older than the start still counts as new. */
export const CLOCK_SLACK_MS = 2_000;

/** Items read per page by the full sweep, between two turns of the event loop. */
const PAGE = 500;

const sweptBatches = (journal: Journal, now: Date): BatchRecord[] =>
  journal.listBatches().filter((batch) => !(batch.state === 'completed' && now.getTime() - Date.parse(batch.updatedAt) > RECENT_BATCH_MS));

/** Each deliverable's folder (tokens filled in) under the output folder for items in `relDir`. */
function deliverableFolders(batch: BatchRecord, relDir: string): string[] {
  return deliverablesOf(batch.spec).map(({ folder }) =>
    resolve(batch.outputFolder, ...deliverableRelPath(folder, { job: batch.spec.job, client: batch.spec.client }, relDir).split('/')));
}

/**
 * The folders a kill may have left temps in, from the items being saved (`downloading`: a few, through the index of
 * moving items), never the whole batch: each one's pending temp, its files so far and its deliverables' folders.
 */
export function foldersToSweepFirst(journal: Journal, now: Date): Set<string> {
  const folders = new Set<string>();
  for (const batch of sweptBatches(journal, now)) {
    folders.add(batch.outputFolder);
    for (const folder of deliverableFolders(batch, '')) folders.add(folder);
    for (const item of journal.itemsInStates(batch.id, ['downloading'])) {
      if (item.pendingTemp) folders.add(dirname(item.pendingTemp));
      for (const output of item.outputs) folders.add(dirname(output));
      for (const folder of deliverableFolders(batch, item.relDir)) folders.add(folder);
    }
  }
  return folders;
}

/**
 * Folders the journal's open and recent batches write into: every item read, a page at a time, the event loop let go
 * between pages (this runs beside the batch's own work). Stops early, with what it found, once `stopping()`.
 */
export async function outputFoldersToSweep(journal: Journal, now: Date, stopping: () => boolean = () => false): Promise<Set<string>> {
  const folders = new Set<string>();
  for (const batch of sweptBatches(journal, now)) {
    const relDirs = new Set<string>(['']);
    let read = 0;
    for (const item of itemsOfBatch(journal, batch.id, PAGE)) {
      relDirs.add(item.relDir);
      // Where its files went (a deliverable's folder named after the capture date is known only from them).
      for (const output of item.outputs) folders.add(dirname(output));
      if (++read % PAGE === 0) {
        await new Promise((r) => setImmediate(r));
        if (stopping()) return folders;
      }
    }
    // Every deliverable's folder under the output folder, then each item's own sub-folder.
    for (const relDir of relDirs) for (const folder of deliverableFolders(batch, relDir)) folders.add(folder);
  }
  return folders;
}

/** A result temp's name: `.batchroom-<item id>-<8 hex>.part` and its second files (save.ts tempPathFor). */
const ITEM_TEMP = /^\.batchroom-(.+)-[0-9a-f]{8}\.part(?:\.finish|_exiftool_tmp)?$/;
/** Item ids are UUIDs (planner, export): a temp named after one this journal does not know is another journal's. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whose temp `name` is: a save of this journal's item that is over (`leftover`: removed, whatever its times — it may
 * carry a capture date, even one in the future), one running now (`saving`: its item has a pending temp, journalled
 * before the file was made and cleared only once it is placed or removed), another journal's (`foreign`: never ours
 * to remove; its own start sweeps it), or a temp named at random (`unnamed`: XMP and JSON temps, probes), judged by
 * its times.
 */
export function ownerOfTemp(journal: Pick<Journal, 'getItem'>, name: string): 'leftover' | 'saving' | 'foreign' | 'unnamed' {
  const id = ITEM_TEMP.exec(name)?.[1];
  if (!id) return 'unnamed';
  const item = journal.getItem(id);
  // Only a `downloading` item is ever saved; a pending temp left on any other is stale.
  if (item) return item.state === 'downloading' && item.pendingTemp ? 'saving' : 'leftover';
  return UUID.test(id) ? 'foreign' : 'unnamed';
}

/**
 * Removes the temps in `folder` that are leftovers (ownerOfTemp); a randomly named one only when neither its mtime
 * nor its ctime is from `notBeforeMs` on: a write, chmod or utimes sets the ctime to now, and nobody can set it back,
 * so a temp someone is writing now (this engine or another) is never older than the moment it was made. How many.
 */
export async function removeLeftoverTemps(folder: string, journal: Pick<Journal, 'getItem'>, notBeforeMs: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isTempName(name)) continue;
    const path = join(folder, name);
    // Asked with no await before the unlink: a save journals its pending temp before the file exists, so a file
    // found above whose item has none now is not being written any more.
    const owner = ownerOfTemp(journal, name);
    if (owner === 'saving' || owner === 'foreign') continue;
    if (owner === 'unnamed') {
      const info = await stat(path).catch(() => null);
      if (!info || !info.isFile() || Math.max(info.mtimeMs, info.ctimeMs) >= notBeforeMs) continue;
    }
    await unlink(path).then(() => { removed++; }, () => undefined);
  }
  return removed;
}

/** The first part of a start's sweep (recovery, before anything is written): `folders`' leftovers; how many. */
export async function sweepFolders(folders: Iterable<string>, journal: Pick<Journal, 'getItem'>, startedAt: Date): Promise<number> {
  let removed = 0;
  for (const folder of folders) removed += await removeLeftoverTemps(folder, journal, startedAt.getTime() - CLOCK_SLACK_MS);
  return removed;
}

/** Every start's full sweep, run after the first submit: every folder of the open and recent batches, page by page. */
export async function sweepOlderTemps(journal: Journal, startedAt: Date, stopping: () => boolean = () => false): Promise<number> {
  let removed = 0;
  for (const folder of await outputFoldersToSweep(journal, startedAt, stopping)) {
    if (stopping()) return removed;
    removed += await removeLeftoverTemps(folder, journal, startedAt.getTime() - CLOCK_SLACK_MS);
  }
  return removed;
}
