import type { RawPairs } from '../../../shared/engine/model';
import { isRawPath } from '../images/raw-preview';
import { open } from 'node:fs/promises';

const JPEG_SOI = [0xff, 0xd8];
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
const PNG_IEND = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

function startsWith(buffer: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => buffer[i] === byte);
}

/**
 * False when a JPEG or PNG visibly lacks its end (no EOI / IEND yet): a copy that stalled longer than the
 * write-finish threshold. Other formats, and files that cannot be read, count as complete — the engine reports
 * what is really wrong with them. JPEG writers may pad after EOI, so the marker is searched in the last bytes.
 */
export async function looksComplete(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const size = (await handle.stat()).size;
    if (size < 16) return true;
    const head = new Uint8Array(8);
    await handle.read(head, 0, 8, 0);
    const tailLength = Math.min(size, 1024);
    const tail = new Uint8Array(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    if (startsWith(head, JPEG_SOI)) return hasSequence(tail, [0xff, 0xd9]);
    if (startsWith(head, PNG_SIGNATURE)) return hasSequence(tail.subarray(Math.max(0, tailLength - 64)), PNG_IEND);
    return true;
  } catch {
    return true;
  } finally {
    await handle?.close();
  }
}

function hasSequence(buffer: Uint8Array, sequence: readonly number[]): boolean {
  outer: for (let i = buffer.length - sequence.length; i >= 0; i--) {
    for (let j = 0; j < sequence.length; j++) if (buffer[i + j] !== sequence[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A JPEG/PNG still missing its end marker is probably a stalled copy: false, and `retry` runs after deferCheckMs;
 * after maxDeferMs it counts as finished anyway. `deferredSince` is the caller's per-path memory of the first look.
 */
export async function writeLooksFinished(path: string, deferredSince: Map<string, number>,
  timing: { deferCheckMs: number; maxDeferMs: number }, retry: () => void): Promise<boolean> {
  if (await looksComplete(path)) {
    deferredSince.delete(path);
    return true;
  }
  const since = deferredSince.get(path) ?? Date.now();
  if (Date.now() - since >= timing.maxDeferMs) {
    deferredSince.delete(path);
    return true;
  }
  deferredSince.set(path, since);
  setTimeout(retry, timing.deferCheckMs).unref();
  return false;
}

/**
 * The half of a RAW+JPEG pair that the folder's pairing leaves out (the RAW under `jpeg`, the JPEG under `raw`)
 * waits this long after it arrives: cameras and card copies write the two a moment apart, and the batch must see
 * both on disk to edit the photo once. A lone RAW or JPEG just starts a few seconds later.
 */
export function pairingHalfWaits(path: string, rawPairs: RawPairs): boolean {
  if (rawPairs === 'jpeg') return isRawPath(path);
  if (rawPairs === 'raw') return /\.jpe?g$/i.test(path);
  return false;
}

/** True once a newly arrived pairing half has waited `waitMs` (`retry` looks at it again then). */
export function pairWaitOver(path: string, since: Map<string, number>, waitMs: number, retry: () => void): boolean {
  const first = since.get(path);
  if (first !== undefined && Date.now() - first >= waitMs - 5) {
    since.delete(path);
    return true;
  }
  if (first === undefined) {
    since.set(path, Date.now());
    setTimeout(retry, waitMs).unref();
  }
  return false;
}
