import type { RawPairs } from '../../../shared/engine/model';
import { isRawPath } from '../images/raw-preview';
import { fileEnd } from './format-complete';
import { createLimiter } from './limit';

/** False when a JPEG or PNG visibly lacks its end marker (see `FileEnd.looksComplete`). */
export async function looksComplete(path: string): Promise<boolean> {
  return (await fileEnd(path, false)).looksComplete;
}

export interface WriteFinishTiming {
  /** How long the watcher saw the size unchanged before it reported the file. */
  stabilityThresholdMs: number;
  /** A file whose format cannot prove it is whole must stay unchanged this long in total. */
  unprovenStableMs: number;
  /** A JPEG/PNG without its end marker is looked at again after this long… */
  deferCheckMs: number;
  /** …and submitted anyway once it has not changed for this long (the engine then says what is wrong with it). */
  maxDeferMs: number;
}

interface Since {
  since: number;
  fingerprint: string;
  /** A retry is scheduled. */
  timer: boolean;
}

/**
 * Decides when a file the watcher reported (its size unchanged for `stabilityThresholdMs`) is written to the end:
 * - a JPEG or PNG whose structure proves it whole (`provablyComplete`) goes on at once;
 * - a JPEG/PNG visibly missing its end marker is a stalled copy: looked at again every `deferCheckMs`, and taken
 *   anyway once it has not changed for `maxDeferMs` (a copy still growing never reaches that);
 * - anything else (other formats, RAW files, JPEGs with trailers this reader does not prove) must have stayed
 *   unchanged for `unprovenStableMs` in total — the conservative window every file used to wait.
 * Files found by a scan (not by the watcher) were never waited for; they keep only the end-marker check.
 */
export class WriteFinish {
  private readonly deferred = new Map<string, Since>();
  private readonly settling = new Map<string, Since>();

  /** Files open at once for these looks (a burst of 1,000 must not open 1,000), apart from hashing's own limit. */
  private readonly limit = createLimiter(32);

  constructor(private readonly timing: WriteFinishTiming) {}

  async finished(path: string, fingerprint: string, fromWatcher: boolean, retry: () => void): Promise<boolean> {
    // Already waiting out the window with these bytes: what was read at the first look has not changed.
    const settling = this.settling.get(path);
    if (fromWatcher && settling?.fingerprint === fingerprint) {
      return this.waited(this.settling, path, fingerprint, this.timing.stabilityThresholdMs, this.timing.unprovenStableMs, null, retry);
    }
    const end = await this.limit(() => fileEnd(path, fromWatcher));
    if (end.proven) return this.done(path);
    if (!end.looksComplete) {
      this.settling.delete(path);
      return this.waited(this.deferred, path, fingerprint, 0, this.timing.maxDeferMs, this.timing.deferCheckMs, retry);
    }
    this.deferred.delete(path);
    if (!fromWatcher) return this.done(path);
    return this.waited(this.settling, path, fingerprint, this.timing.stabilityThresholdMs, this.timing.unprovenStableMs, null, retry);
  }

  /** A path that went away or was handed on: forget it. */
  forget(path: string): void {
    this.deferred.delete(path);
    this.settling.delete(path);
  }

  private done(path: string): true {
    this.forget(path);
    return true;
  }

  /**
   * True once `path` has kept `fingerprint` for `needMs` (the first look counts `alreadyMs` as already seen
   * unchanged). A change starts the clock again. `retry` runs when the time is up (or every `everyMs`), from one
   * timer per path at a time, however many watcher events look in between.
   */
  private waited(map: Map<string, Since>, path: string, fingerprint: string, alreadyMs: number, needMs: number,
    everyMs: number | null, retry: () => void): boolean {
    const now = Date.now();
    const seen = map.get(path);
    if (seen && seen.fingerprint === fingerprint && now - seen.since >= needMs) return this.done(path);
    if (!seen && alreadyMs >= needMs) return this.done(path);
    const entry: Since = seen && seen.fingerprint === fingerprint
      ? seen
      : { since: now - (seen ? 0 : alreadyMs), fingerprint, timer: seen?.timer ?? false };
    map.set(path, entry);
    if (!entry.timer) {
      entry.timer = true;
      setTimeout(() => {
        const current = map.get(path);
        if (current) current.timer = false;
        retry();
      }, everyMs ?? Math.max(1, entry.since + needMs - now)).unref();
    }
    return false;
  }
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
