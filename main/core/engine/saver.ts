import { unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isAppError } from '../../../shared/errors';
import { extensionForFormat, namingSourceOf, resultFormatOf, safeRelDir } from '../../../shared/naming';
import { finishResult, readOriginalLook, type FinishedResult } from '../images/finish-result';
import { absoluteOf } from '../images/output-names';
import {
  describeWriteError, finishPlacement, placeFile, tempPathFor, verifyImage, writeTemp,
} from '../images/save';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { ServiceClient } from '../service/types';
import { GateClosed, type RequestGate } from './limiter';
import type { NamePlanCache } from './name-plan-cache';
import { imageFieldOrder, planResultName } from './output-plan';
import { MetadataWriterEnded, type Provenance, type ResultMetadataWriter } from '../images/result-metadata';
import { writeSidecar, type SidecarContext } from '../images/sidecar';
import { APP_NAME, APP_VERSION } from '../../../shared/app-info';
import { sidecarKindOf } from '../../../shared/engine/model';

// Downloads an item's results and saves each one safely. Progress is journalled per result: the temp path before
// any byte is written, the final path once the temp is verified, the output list once it is in place — so recovery
// after a crash either finishes the placement or starts that one result over, and never saves a result twice.

export interface SaverDeps {
  journal: Journal;
  client: ServiceClient;
  gate: RequestGate;
  originalsOf: (batchId: string) => ReadonlySet<string>;
  /** Each output folder's name plan, reused while it holds (see name-plan-cache.ts). */
  namePlans: NamePlanCache;
  now: () => Date;
  onChange: (item: ItemRecord) => void;
  /** Time spent downloading and saving each result (the engine's phase totals). */
  onPhase?: (phase: 'download' | 'save', ms: number) => void;
  /** Copies the original's metadata onto each result (policy per batch) before it is placed. */
  metadata?: ResultMetadataWriter;
}

export class DownloadRetry extends Error {}
export class SaveFailure extends Error {}
/**
 * The save was given up because its signal fired (the batch was cancelled, or the engine stops without waiting): its
 * temp file is removed and nothing is recorded against the item, which stays `downloading` — the paid result is
 * downloaded again later, never resubmitted.
 */
export class SaveAbandoned extends Error {}

export function destinationFolder(batch: BatchRecord, item: ItemRecord): string {
  return resolve(batch.outputFolder, ...safeRelDir(item.relDir).split('/'));
}

export type SaveOutcome = { kind: 'saved'; outputs: string[]; warnings: string[] } | { kind: 'skipped'; reason: string };

/** Finishes a placement a crash interrupted (final name journalled, temp maybe still there). */
export async function recoverPlacement(deps: SaverDeps, item: ItemRecord, batch: BatchRecord): Promise<ItemRecord> {
  if (item.pendingTemp && item.pendingFinal) {
    const result = await finishPlacement(item.pendingTemp, item.pendingFinal);
    if (result === 'placed') {
      const outputs = [...item.outputs, item.pendingFinal];
      await writeSidecar(sidecarKindOf(batch.spec.output), deps.metadata, item.pendingFinal, sidecarContext(batch, item));
      deps.journal.updateItem(item.id, { outputs, pendingTemp: null, pendingFinal: null });
      return { ...item, outputs, pendingTemp: null, pendingFinal: null };
    }
  } else if (item.pendingTemp) {
    await unlink(item.pendingTemp).catch(() => undefined);
  }
  deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
  return { ...item, pendingTemp: null, pendingFinal: null };
}

/**
 * Saves results from item.outputs.length on. Throws DownloadRetry (fetch fresh URLs and try again), SaveFailure, or
 * SaveAbandoned once `signal` fires: checked at every step up to the final name, and the download itself is aborted.
 * A result already placed when it fires is recorded as usual.
 */
export async function saveResults(deps: SaverDeps, item: ItemRecord, batch: BatchRecord, total: number, signal?: AbortSignal): Promise<SaveOutcome> {
  const folder = destinationFolder(batch, item);
  const outputs = [...item.outputs];
  const warnings: string[] = [];
  const stopIfAborted = () => {
    if (signal?.aborted) throw new SaveAbandoned('the save was abandoned (batch cancelled or engine stopping)');
  };
  for (let n = outputs.length; n < item.resultUrls.length; n++) {
    stopIfAborted();
    const url = item.resultUrls[n]!;
    const temp = tempPathFor(folder, item.id);
    deps.journal.updateItem(item.id, { pendingTemp: temp, pendingFinal: null });
    const startedAt = performance.now();
    let downloadedAt = startedAt;
    try {
      let response: Response;
      try {
        // The wait for its turn (a back-off, the offline latch) ends with the signal too: a stop reaches it at once.
        await deps.gate.acquire(signal);
        stopIfAborted();
        response = await deps.client.downloadResult(url, { signal });
        deps.gate.succeeded();
      } catch (error) {
        stopIfAborted();
        if (error instanceof GateClosed) throw new SaveAbandoned(error.message, { cause: error });
        if (isAppError(error) && (error.code === 'network' || error.code === 'timeout')) deps.gate.networkFailed();
        throw new DownloadRetry(`download failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (!response.body) throw new DownloadRetry('download failed: empty response');
      try {
        // The signal also ends the body here, whatever the client does with it.
        await writeTemp(temp, Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>, { signal }));
        downloadedAt = performance.now();
        deps.onPhase?.('download', downloadedAt - startedAt);
      } catch (error) {
        stopIfAborted();
        // The service client's own errors (a body that broke off or stalled) carry a code too: only the file
        // system's mean the folder is at fault.
        if ((error as NodeJS.ErrnoException).code && !isAppError(error)) throw new SaveFailure(describeWriteError(error, folder), { cause: error });
        throw new DownloadRetry(`download interrupted: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      try {
        await verifyImage(temp);
      } catch (error) {
        throw new DownloadRetry(`downloaded result does not decode (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      }
      stopIfAborted();
      // The result becomes the file the user asked for: their format and quality, a colour profile, their DPI.
      const original = localOriginalOf(batch, item);
      const output = batch.spec.output;
      let finished: FinishedResult;
      try {
        // The format from the same source the namer uses (a URL input's own extension too), so the name promised holds.
        const format = resultFormatOf(namingSourceOf(item.sources, imageFieldOrder(batch.workflow)) ?? '', output.format);
        finished = await finishResult(temp, { format, quality: output.quality, colour: output.colour }, await readOriginalLook(original));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code) throw new SaveFailure(describeWriteError(error, folder), { cause: error });
        throw new DownloadRetry(`the result could not be converted (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      }
      stopIfAborted();
      const { format } = finished;
      if (deps.metadata) warnings.push(...await writeMetadata(deps.metadata, temp, batch, item, finished));
      stopIfAborted();
      // The name comes from the one namer, planned over the whole batch; a name someone took meanwhile is planned again.
      const takenMeanwhile: string[] = [];
      let placed: string | null = null;
      let lastName = '';
      for (let attempt = 0; attempt < 20 && placed === null; attempt++) {
        const planned = await planResultName(deps.journal, batch, { ...item, outputs }, n, extensionForFormat(format), total, {
          originals: deps.originalsOf(batch.id), takenMeanwhile, cache: deps.namePlans, capture: deps.metadata?.capture,
        });
        const destination = absoluteOf(batch.outputFolder, planned.relPath);
        lastName = planned.fileName;
        if (planned.action === 'skip') {
          await unlink(temp).catch(() => undefined);
          deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
          return { kind: 'skipped', reason: `not saved: ${destination} already exists (collision policy "skip")` };
        }
        stopIfAborted(); // the last moment: once its final name is journalled, the result is placed and recorded
        deps.journal.updateItem(item.id, { pendingFinal: destination }, { durable: true });
        try {
          if ((await placeFile(temp, destination, planned.action === 'overwrite' ? 'overwrite' : 'suffix')) === 'placed') placed = destination;
          else takenMeanwhile.push(planned.relPath);
        } catch (error) {
          throw new SaveFailure(describeWriteError(error, dirname(destination)), { cause: error });
        }
      }
      if (placed === null) throw new SaveFailure(`no free output name for ${lastName}`);
      const sidecarProblem = await writeSidecar(sidecarKindOf(batch.spec.output), deps.metadata, placed, sidecarContext(batch, item));
      if (sidecarProblem) warnings.push(sidecarProblem);
      outputs.push(placed);
      deps.journal.updateItem(item.id, { outputs, pendingTemp: null, pendingFinal: null });
      deps.onPhase?.('save', performance.now() - downloadedAt);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
      throw error;
    }
  }
  return { kind: 'saved', outputs, warnings: [...new Set(warnings)] };
}

/** The original's metadata and the provenance onto the result (the first image field's file is the original). */
async function writeMetadata(writer: ResultMetadataWriter, temp: string, batch: BatchRecord, item: ItemRecord, size: { width: number; height: number }): Promise<string[]> {
  const local = localOriginalOf(batch, item);
  try {
    const { warnings } = await writer.apply(temp, {
      source: local, policy: batch.spec.output.metadata ?? 'keep', width: size.width, height: size.height, provenance: provenanceOf(batch, item),
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
  };
}

const sidecarContext = (batch: BatchRecord, item: ItemRecord): SidecarContext => ({
  provenance: provenanceOf(batch, item), submittedAt: item.submittedAt, completedAt: item.completedAt, creatorTool: `${APP_NAME} ${APP_VERSION}`,
});
