import { unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { namingSourceOf, resultFormatOf } from '../../../shared/naming';
import { finishResult, readOriginalLook, type FinishedResult } from '../images/finish-result';
import { errnoOf } from '../images/output-fs';
import { finishPlacement, syncRewrittenTemp, tempPathFor, verifyImage } from '../images/save';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { imageFieldOrder } from './output-plan';
import { DownloadRetry, SaveAbandoned, SaveFailure, type SaveNotes } from './save-errors';
import { destinationStaysInside, narrowResultMode } from '../images/result-mode';
import { classifyWriteError, download, place, removeTemp, requireOutputFolder, settleSaveError, throwIfUnwritable } from './save-steps';
import type { SaverDeps } from './saver-deps';
import { hashFile } from '../images/hash';
import { MetadataWriterEnded, type Provenance, type ResultMetadataWriter } from '../images/result-metadata';
import { writeSidecar, type SidecarContext } from '../images/sidecar';
import { APP_NAME, APP_VERSION } from '../../../shared/app-info';
import { sidecarKindOf, type MetadataPolicy } from '../../../shared/engine/model';
import { deliverableCount, deliverableRelPath, deliverablesOf, slotOf } from '../../../shared/engine/deliverables';
import { deliverableRelDir } from './deliverable-folder';
import { WatermarkUnavailable } from '../images/watermark';

// Downloads an item's results and saves each one safely. Progress is journalled per result: the temp path before
// any byte is written, the final path once the temp is verified, the output list once it is in place — so recovery
// after a crash either finishes the placement or starts that one result over, and never saves a result twice.

export type { SaverDeps } from './saver-deps';

export { DownloadRetry, OutputUnwritable, PlacementUndecided, PlacementWithdrawn, ResultUrlGone, SaveAbandoned, SaveFailure } from './save-errors';

/** The batch's first deliverable's folder for an item, when it names no capture date (sweeps and followers use it). */
export function destinationFolder(batch: Pick<BatchRecord, 'outputFolder'> & { spec: Pick<BatchRecord['spec'], 'output' | 'job' | 'client'> }, item: Pick<ItemRecord, 'relDir'>): string {
  return resolve(batch.outputFolder, ...deliverableRelPath(batch.spec.output.folder ?? '', { job: batch.spec.job, client: batch.spec.client }, item.relDir).split('/'));
}

/** Where deliverable `d` of an item is written (its folder's tokens filled in, a capture date read when asked). */
async function deliverableFolder(deps: SaverDeps, batch: BatchRecord, item: ItemRecord, d: number): Promise<string> {
  const relDir = await deliverableRelDir(batch.spec, d, item, imageFieldOrder(batch.workflow), deps.metadata?.capture);
  return resolve(batch.outputFolder, ...relDir.split('/'));
}

/** A sub-folder kept from the inputs must not lead out of the output folder through a symlink (someone else's, say). */
async function requireInsideOutput(folder: string, outputFolder: string): Promise<void> {
  if (!(await destinationStaysInside(folder, outputFolder))) {
    throw new SaveFailure(`not saved: ${folder} leads out of the output folder ${outputFolder} (a symbolic link)`);
  }
}

/**
 * A chain step before the last: the file just placed is the next step's photo, sent as this result's URL. Recorded
 * before the item's outputs, so a saved intermediate always says where it came from (journal/chain-links.ts).
 */
async function linkChainResult(deps: SaverDeps, batch: BatchRecord, item: ItemRecord, path: string, resultIndex: number): Promise<void> {
  const chain = batch.spec.chain;
  if (!chain || chain.step >= chain.steps || !item.executionId) return;
  // Its content as placed: the next step sends the URL only while the file is still this result (chain-input.ts).
  const contentHash = await hashFile(path).catch(() => null);
  deps.journal.recordChainLink(path, { executionId: item.executionId, resultIndex, contentHash });
}

export type SaveOutcome = { kind: 'saved'; outputs: string[]; warnings: string[] } | { kind: 'skipped'; reason: string };

/** Finishes a placement a crash interrupted (final name journalled, temp maybe still there). */
export async function recoverPlacement(deps: SaverDeps, item: ItemRecord, batch: BatchRecord): Promise<ItemRecord> {
  if (item.pendingTemp && item.pendingFinal) {
    // A disk that refuses the rename now (read-only, gone): not placed; the result is saved again from the cache.
    const result = await finishPlacement(item.pendingTemp, item.pendingFinal).catch(() => 'missing' as const);
    if (result === 'placed') {
      const outputs = [...item.outputs, item.pendingFinal];
      const count = deliverableCount(batch.spec);
      const slot = slotOf(item.outputs.length, count);
      await writeSidecar(sidecarKindOf(deliverablesOf(batch.spec)[slot.deliverable]!), deps.metadata, item.pendingFinal, sidecarContext(batch, item));
      await linkChainResult(deps, batch, item, item.pendingFinal, slot.result);
      deps.journal.updateItem(item.id, { outputs, pendingTemp: null, pendingFinal: null });
      // The kept bytes serve the result's further deliverables: evictable only once its last one is placed.
      if (deps.cache && item.executionId && slot.deliverable === count - 1) await deps.cache.markSaved(item.executionId, slot.result);
      return { ...item, outputs, pendingTemp: null, pendingFinal: null };
    }
    await unlink(item.pendingTemp).catch(() => undefined);
  } else if (item.pendingTemp) {
    await unlink(item.pendingTemp).catch(() => undefined);
  }
  deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
  return { ...item, pendingTemp: null, pendingFinal: null };
}

/**
 * Saves results from item.outputs.length on. Throws DownloadRetry (fetch fresh URLs and try again), SaveFailure,
 * OutputUnwritable (the output folder refused a write: pause, keep the result, retry later) or SaveAbandoned once
 * `signal` fires: checked at every step up to the final name, and the download itself is aborted. A result already
 * placed when it fires is recorded as usual. Each result is downloaded into the result cache first (when it can
 * take it) and the output written from there, so a refused write costs no download and no execution.
 */
export async function saveResults(deps: SaverDeps, item: ItemRecord, batch: BatchRecord, total: number, signal?: AbortSignal): Promise<SaveOutcome> {
  const outputs = [...item.outputs];
  const warnings: string[] = [];
  const notes: SaveNotes = { cacheProblem: null };
  const stopIfAborted = () => {
    if (signal?.aborted) throw new SaveAbandoned('the save was abandoned (batch cancelled or engine stopping)');
  };
  const cache = deps.cache ?? null;
  const deliverables = deliverablesOf(batch.spec);
  const count = deliverables.length;
  const skipped: string[] = [];
  let madeAny = false;
  // One slot per result and deliverable (result 0's deliverables first): 1 execution → N files, none paid again.
  for (let k = outputs.length; k < item.resultUrls.length * count; k++) {
    const { result: n, deliverable: d } = slotOf(k, count);
    const output = deliverables[d]!;
    const lastOfResult = d === count - 1;
    stopIfAborted();
    // Never recreate a missing output folder: an unplugged drive's mount point would get a copy on the system disk.
    await requireOutputFolder(batch.outputFolder, notes);
    const folder = await deliverableFolder(deps, batch, item, d);
    await requireInsideOutput(folder, batch.outputFolder);
    const temp = tempPathFor(folder, item.id);
    deps.journal.updateItem(item.id, { pendingTemp: temp, pendingFinal: null });
    const startedAt = performance.now();
    let downloadedAt = startedAt;
    try {
      let source = cache && item.executionId ? await cache.get(item.executionId, n) : null;
      const fromCache = source !== null;
      if (!source) {
        source = await download(deps, item, n, temp, batch.outputFolder, notes, signal);
        deps.onPhase?.('download', performance.now() - startedAt);
      }
      downloadedAt = performance.now();
      try {
        await verifyImage(source);
      } catch (error) {
        if (source !== temp && item.executionId) await cache?.drop(item.executionId, n);
        throw new DownloadRetry(`${fromCache ? 'kept' : 'downloaded'} result does not decode (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      }
      stopIfAborted();
      // The result becomes the file the user asked for: their format, quality, size, colour profile, DPI, watermark.
      const original = localOriginalOf(batch, item);
      let finished: FinishedResult;
      try {
        // The format from the same source the namer uses (a URL input's own extension too), so the name promised holds.
        const format = resultFormatOf(namingSourceOf(item.sources, imageFieldOrder(batch.workflow)) ?? '', output.format);
        finished = await finishResult(source, temp, {
          format, quality: output.quality, colour: output.colour, size: output.size, ...(output.watermark ? { watermark: output.watermark } : {}),
        }, await readOriginalLook(original));
      } catch (error) {
        if (errnoOf(error) && !(error instanceof WatermarkUnavailable)) throw await classifyWriteError(error, folder, batch.outputFolder, notes);
        // The recipe's watermark is not there as saved: the user's to fix; the paid result waits in the cache.
        if (error instanceof WatermarkUnavailable) throw new SaveFailure(`not saved: ${error.message}`, { cause: error });
        throw new DownloadRetry(`the result could not be converted (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      }
      stopIfAborted();
      const { format } = finished;
      if (deps.metadata) {
        let problems = await writeMetadata(deps.metadata, temp, batch, item, finished, output.metadata);
        if (problems.length > 0) {
          // ExifTool says "cannot write" without an errno: a full or read-only folder is a pause, not a lost tag. A
          // disk that was full only for a moment (other saves' temps, since removed) gets the metadata written again.
          await throwIfUnwritable(folder, batch.outputFolder, notes);
          problems = await writeMetadata(deps.metadata, temp, batch, item, finished, output.metadata);
          if (problems.length > 0) await throwIfUnwritable(folder, batch.outputFolder, notes);
        }
        warnings.push(...problems);
        // The file about to get its final name is ExifTool's, not the one writeTemp synced.
        try {
          await syncRewrittenTemp(temp);
        } catch (error) {
          throw errnoOf(error) ? await classifyWriteError(error, folder, batch.outputFolder, notes) : error;
        }
      }
      stopIfAborted();
      await narrowResultMode(temp, folder, original);
      // Looked at again just before the final name: the sub-folder may have been swapped for a link meanwhile.
      await requireInsideOutput(folder, batch.outputFolder);
      // Studio: still this instance's photo (another may have taken it over while this one was paused)?
      await deps.confirmPlacement?.(item, batch);
      const placed = await place(deps, item, batch, outputs, { result: n, deliverable: d, lastOfResult }, temp, format, total, folder, notes, stopIfAborted);
      if (placed.kind === 'skipped') {
        if (count === 1) return { kind: 'skipped', reason: placed.reason };
        // One deliverable's name is taken (policy "skip"): that file stays as it is and the result's other
        // deliverables are still made; its slot holds the file found there, so a later save resumes after it.
        skipped.push(placed.reason);
        outputs.push(placed.path);
        deps.journal.updateItem(item.id, { outputs, pendingTemp: null, pendingFinal: null });
        continue;
      }
      madeAny = true;
      const sidecarProblem = await writeSidecar(sidecarKindOf(output), deps.metadata, placed.path, sidecarContext(batch, item));
      if (sidecarProblem) warnings.push(sidecarProblem);
      await linkChainResult(deps, batch, item, placed.path, n);
      outputs.push(placed.path);
      deps.journal.updateItem(item.id, { outputs, pendingTemp: null, pendingFinal: null });
      // Kept until the result's last deliverable is written: the others are made from the same bytes, not a download.
      if (cache && item.executionId && lastOfResult) await cache.markSaved(item.executionId, n);
      deps.onPhase?.('save', performance.now() - downloadedAt);
    } catch (error) {
      await removeTemp(temp);
      deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
      throw await settleSaveError(error, folder, batch.outputFolder, notes, signal);
    }
  }
  // Every file's name was taken (policy "skip"): nothing of this result was written, as with one deliverable.
  if (!madeAny && skipped.length > 0 && skipped.length === outputs.length - item.outputs.length && item.outputs.length === 0) {
    return { kind: 'skipped', reason: skipped[0]! };
  }
  return { kind: 'saved', outputs, warnings: [...new Set([...warnings, ...skipped])] };
}

/** The original's metadata and the provenance onto the result (the first image field's file is the original). */
async function writeMetadata(writer: ResultMetadataWriter, temp: string, batch: BatchRecord, item: ItemRecord, size: { width: number; height: number },
  policy: MetadataPolicy): Promise<string[]> {
  const local = localOriginalOf(batch, item);
  try {
    const { warnings } = await writer.apply(temp, {
      source: local, policy, width: size.width, height: size.height, provenance: provenanceOf(batch, item),
    });
    return warnings;
  } catch (error) {
    // Ended because the engine stops: not a result to save without its metadata, but one to save on the next start.
    if (error instanceof MetadataWriterEnded) throw new SaveAbandoned(error.message, { cause: error });
    return [`metadata not written: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`];
  }
}

/** The original a result takes its metadata, format and colour from: the first image field's file, when local. */
function localOriginalOf(batch: BatchRecord, item: ItemRecord): string | null {
  const source = namingSourceOf(item.sources, imageFieldOrder(batch.workflow));
  return source && !/^https?:\/\//i.test(source) ? source : null;
}

function provenanceOf(batch: BatchRecord, item: ItemRecord): Provenance {
  return {
    workflowId: batch.workflow.id, workflowName: batch.workflow.name, parameters: batch.spec.parameters, executionId: item.executionId,
    creditsCharged: item.creditsCharged, sourceName: item.displayName, sourceSha256: item.contentHash,
    ...(batch.spec.recipe ? { recipe: batch.spec.recipe } : {}),
  };
}

const sidecarContext = (batch: BatchRecord, item: ItemRecord): SidecarContext => ({
  provenance: provenanceOf(batch, item), submittedAt: item.submittedAt, completedAt: item.completedAt, creatorTool: `${APP_NAME} ${APP_VERSION}`,
});
