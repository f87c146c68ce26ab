import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isAppError } from '../../../shared/errors';
import { extensionForFormat } from '../../../shared/naming';
import { absoluteOf } from '../images/output-names';
import { errnoOf, outputFs } from '../images/output-fs';
import { outputProblem, probeOutputFolder, UNWRITABLE_ERRNOS } from '../images/output-health';
import { derivedTempsOf, describeWriteError, placeFile, writeTemp } from '../images/save';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { GateClosed } from './limiter';
import { planResultName } from './output-plan';
import { ResultCacheUnavailable } from './result-cache';
import { DownloadRetry, OutputUnwritable, PlacementUndecided, PlacementWithdrawn, ResultUrlGone, SaveAbandoned, SaveFailure, type SaveNotes } from './save-errors';
import type { SaverDeps } from './saver-deps';

// The steps of saving one result (saver.ts runs them in order): download (into the result cache, else straight
// into the output temp), placement under the planned name, and what a refused write means.

/** A write error as the save's outcome: the folder's fault (OutputUnwritable), or the result's (SaveFailure). */
export async function classifyWriteError(error: unknown, folder: string, outputRoot: string, notes: SaveNotes): Promise<Error> {
  const code = errnoOf(error);
  if (code === 'ENOENT') {
    // ENOENT means the folder is gone only when the output folder itself is (else: a sub-folder raced, a temp vanished).
    const root = await outputFs.stat(outputRoot).then((s) => s.isDirectory(), () => false);
    if (!root) return new OutputUnwritable(await outputProblem('ENOENT', outputRoot), notes.cacheProblem, { cause: error });
    return new SaveFailure(describeWriteError(error, folder), { cause: error });
  }
  // Named (and later looked at) where the write failed: a locked sub-folder is not the whole output folder.
  if (code && UNWRITABLE_ERRNOS.has(code)) return new OutputUnwritable(await outputProblem(code, folder), notes.cacheProblem, { cause: error });
  return new SaveFailure(describeWriteError(error, folder), { cause: error });
}

/**
 * What any error on the way of one save means, decided once for every step (a chmod or a conversion on a disk that
 * turned read-only mid-save must pause, not fail a paid item): our own outcomes stay what they are; a file-system
 * errno is classified; anything else (a decoder or ExifTool that says "cannot write" without an errno, a conversion
 * given up) is the folder's fault when the folder no longer takes writes, else stays as it was.
 */
export async function settleSaveError(error: unknown, folder: string, outputRoot: string, notes: SaveNotes, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted || error instanceof SaveAbandoned || error instanceof OutputUnwritable || error instanceof SaveFailure || error instanceof PlacementWithdrawn
    || error instanceof PlacementUndecided) return error;
  if (!(error instanceof DownloadRetry) && errnoOf(error) && !isAppError(error)) return classifyWriteError(error, folder, outputRoot, notes);
  // A download that broke off is the network's, unless the folder refuses writes now too.
  const problem = await probeOutputFolder(folder, outputRoot).catch(() => null);
  return problem ? new OutputUnwritable(problem, notes.cacheProblem, { cause: error }) : error;
}

/** The batch's output folder must exist: it is never created again here (see probeOutputFolder). */
export async function requireOutputFolder(outputRoot: string, notes: SaveNotes): Promise<void> {
  const present = await outputFs.stat(outputRoot).then((s) => s.isDirectory(), (error: unknown) => errnoOf(error) ?? 'EIO');
  if (present === true) return;
  throw new OutputUnwritable(await outputProblem(present === false || present === 'ENOENT' ? 'ENOENT' : present, outputRoot), notes.cacheProblem);
}

/** After a step that fails without an errno (ExifTool): when the folder no longer takes writes, that is the cause. */
export async function throwIfUnwritable(folder: string, outputRoot: string, notes: SaveNotes): Promise<void> {
  const problem = await probeOutputFolder(folder, outputRoot);
  if (problem) throw new OutputUnwritable(problem, notes.cacheProblem);
}

/** Temps a failed save could not remove (a disk gone read-only refuses the unlink too): removed once it takes writes. */
const leftovers = new Set<string>();

export async function removeTemp(temp: string): Promise<void> {
  for (const path of [temp, ...derivedTempsOf(temp)]) {
    await outputFs.unlink(path).catch((error: unknown) => {
      if (errnoOf(error) !== 'ENOENT') leftovers.add(path);
    });
  }
}

/** Retries the removals removeTemp could not do (called when a refusing folder takes writes again). */
export async function removeLeftoverTemps(): Promise<void> {
  for (const path of [...leftovers]) {
    await outputFs.unlink(path).then(() => leftovers.delete(path), (error: unknown) => {
      if (errnoOf(error) === 'ENOENT') leftovers.delete(path);
    });
  }
}

async function fetchResult(deps: SaverDeps, url: string, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  const stopIfAborted = () => {
    if (signal?.aborted) throw new SaveAbandoned('the save was abandoned (batch cancelled or engine stopping)');
  };
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
    const Retry = isAppError(error) && error.code === 'not_found' ? ResultUrlGone : DownloadRetry;
    throw new Retry(`download failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!response.body) throw new DownloadRetry('download failed: empty response');
  // The signal also ends the body, whatever the client does with it.
  return Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>, signal ? { signal } : {});
}

/**
 * Downloads result `n`: into the result cache when it takes it (its path), else into `temp` in the output folder.
 * A cache that cannot keep it is noted (the pause message says so) and the result downloaded again, straight out.
 */
export async function download(deps: SaverDeps, item: ItemRecord, n: number, temp: string, outputRoot: string, notes: SaveNotes,
  signal?: AbortSignal): Promise<string> {
  const url = item.resultUrls[n]!;
  const interrupted = (error: unknown) => {
    if (signal?.aborted) return new SaveAbandoned('the save was abandoned (batch cancelled or engine stopping)', { cause: error });
    return new DownloadRetry(`download interrupted: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  };
  if (deps.cache && item.executionId) {
    const body = await fetchResult(deps, url, signal);
    try {
      return await deps.cache.put(item.executionId, n, body);
    } catch (error) {
      if (!(error instanceof ResultCacheUnavailable)) throw interrupted(error);
      notes.cacheProblem = error.message;
      if (typeof (body as Readable).destroy === 'function') (body as Readable).destroy();
    }
  }
  const body = await fetchResult(deps, url, signal);
  try {
    await writeTemp(temp, body);
  } catch (error) {
    // The service client's own errors (a body that broke off or stalled) carry a code too: only the file
    // system's mean the folder is at fault.
    if (signal?.aborted) throw interrupted(error);
    if (errnoOf(error) && !isAppError(error)) throw await classifyWriteError(error, dirname(temp), outputRoot, notes);
    throw interrupted(error);
  }
  return temp;
}

export type Placed = { kind: 'placed'; path: string } | { kind: 'skipped'; reason: string; path: string };

/** Which file of an item is placed: result `result`'s deliverable `deliverable` (the last of that result or not). */
export interface SaveSlot { result: number; deliverable: number; lastOfResult: boolean }

/** Gives the finished temp its final name from the one namer (planned again when someone took it meanwhile). */
export async function place(deps: SaverDeps, item: ItemRecord, batch: BatchRecord, outputs: string[], slot: SaveSlot, temp: string, format: string,
  total: number, folder: string, notes: SaveNotes, stopIfAborted: () => void): Promise<Placed> {
  const n = slot.result;
  const takenMeanwhile: string[] = [];
  let lastName = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    const planned = await planResultName(deps.journal, batch, { ...item, outputs }, n, extensionForFormat(format), total, {
      originals: deps.originalsOf(batch.id), takenMeanwhile, cache: deps.namePlans, capture: deps.metadata?.capture, deliverable: slot.deliverable,
    });
    const destination = absoluteOf(batch.outputFolder, planned.relPath);
    lastName = planned.fileName;
    if (planned.action === 'skip') {
      await outputFs.unlink(temp).catch(() => undefined);
      deps.journal.updateItem(item.id, { pendingTemp: null, pendingFinal: null });
      if (deps.cache && item.executionId && slot.lastOfResult) await deps.cache.markSaved(item.executionId, n);
      return { kind: 'skipped', reason: `not saved: ${destination} already exists (collision policy "skip")`, path: destination };
    }
    stopIfAborted(); // the last moment: once its final name is journalled, the result is placed and recorded
    deps.journal.updateItem(item.id, { pendingFinal: destination });
    await deps.journal.whenDurable(); // on disk before the rename (power cut included), without stopping the event loop
    try {
      if ((await placeFile(temp, destination, planned.action === 'overwrite' ? 'overwrite' : 'suffix')) === 'placed') {
        await removeTemp(temp); // normally gone already; one the disk refused to unlink waits for it to take writes
        await removeLeftoverTemps(); // this folder takes writes again: what earlier saves could not remove goes now
        return { kind: 'placed', path: destination };
      }
      takenMeanwhile.push(planned.relPath);
    } catch (error) {
      throw await classifyWriteError(error, dirname(destination), batch.outputFolder, notes);
    }
  }
  throw new SaveFailure(`no free output name for ${lastName}`);
}
