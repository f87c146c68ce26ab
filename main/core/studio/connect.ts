import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, isAppError } from '../../../shared/errors';
import { silentLogger } from '../log';
import { BACKOFF, backoffDelay, startingAt } from '../service/retry';
import type { LedgerRecord } from './ledger';
import { parseLedgerUrl } from './ledger-url';
import type { FollowScope, TakenOver } from './pg-instances';
import { openStudioLedger, type StudioLedger, type StudioLedgerOptions } from './studio-ledger';

// Joining the studio when the database may not be there yet (the NAS boots after the workstation, the VPN is
// down): the instance starts anyway, "studio ledger unreachable — claiming paused", and joins as soon as it can.
// There is no local fallback: processing without a claim is exactly the double charge studio mode exists to stop.

/** A stable id per state dir: a restarted instance finds its own claims again (and is not a stranger taking over). */
export function studioInstanceId(stateDir: string): string {
  const file = join(stateDir, 'studio-instance-id');
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[\w-]{8,64}$/.test(id)) return id;
  } catch {
    // first run
  }
  const id = randomUUID();
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

export interface ConnectOptions extends StudioLedgerOptions {
  /** First retry while the database cannot be reached; doubles up to 30 s. */
  retryMs?: number;
}

/**
 * Opens the studio ledger. Errors that waiting will not fix (a malformed URL, a password in it, a refused login,
 * a schema newer than this build) are thrown now; an unreachable database gives a ledger that is unreachable
 * until it opens.
 */
export async function connectStudioLedger(options: ConnectOptions): Promise<StudioLedger> {
  try {
    return await openStudioLedger(options);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'unavailable') throw error;
    (options.logger ?? silentLogger).child('studio').warn('studio ledger unreachable at start: claiming paused until it answers', { error: error.message });
    return deferredLedger(options, error);
  }
}

function deferredLedger(options: ConnectOptions, firstError: AppError): StudioLedger {
  const target = parseLedgerUrl(options.url);
  const reachListeners = new Set<(reachable: boolean, reason: string | null) => void>();
  const takeoverListeners = new Set<(items: TakenOver[]) => void | Promise<void>>();
  const folders = new Map<string, { budget: number | null; hotFolderId: string | undefined }>();
  const pending: LedgerRecord[] = [];
  let scopes: readonly FollowScope[] = [];
  let inner: StudioLedger | null = null;
  let lastError = firstError;
  let attempts = 0;
  let timer: NodeJS.Timeout | null = null;
  let opening: Promise<void> | null = null;
  let closed = false;

  const unreachable = () => new AppError('unavailable', lastError.message);
  const live = (): StudioLedger => {
    if (!inner) throw unreachable();
    return inner;
  };

  const tryOpen = (): Promise<void> => {
    opening ??= (async () => {
      try {
        const ledger = await openStudioLedger(options);
        if (closed) return void (await ledger.close());
        for (const [folderKey, f] of folders) await ledger.setFolder(folderKey, f.budget, f.hotFolderId);
        for (const entry of pending.splice(0)) await ledger.record(entry);
        ledger.setScopes(scopes);
        ledger.onReachability((reachable, reason) => { for (const l of reachListeners) l(reachable, reason); });
        ledger.onTakeover(async (items) => { for (const l of takeoverListeners) await l(items); });
        inner = ledger;
        for (const l of reachListeners) l(true, null);
      } catch (error) {
        lastError = isAppError(error) ? error : new AppError('unavailable', String(error));
        schedule();
      }
    })().finally(() => { opening = null; });
    return opening;
  };
  const schedule = () => {
    if (closed || inner) return;
    const delay = backoffDelay(options.retryMs === undefined ? BACKOFF.studioConnect : startingAt(BACKOFF.studioConnect, options.retryMs), attempts++);
    timer = setTimeout(() => void tryOpen(), delay);
    timer.unref();
  };
  schedule();

  return {
    shared: true,
    describe: target.display,
    instanceId: options.instanceId,
    target,
    get reachable() { return inner?.reachable ?? false; },
    get: (key) => live().get(key),
    async record(entry) {
      if (inner) return inner.record(entry);
      await options.local?.record(entry);
      pending.push(entry);
    },
    async setFolder(folderKey, budget, hotFolderId) {
      folders.set(folderKey, { budget, hotFolderId });
      if (inner) await inner.setFolder(folderKey, budget, hotFolderId);
    },
    claim: async (request) => live().claim(request),
    release: async (key) => live().release(key),
    submitting: async (key) => live().submitting(key),
    notSent: async (key) => live().notSent(key),
    accepted: async (key, executionId, credits, batch) => live().accepted(key, executionId, credits, batch),
    // Not open yet: this instance's lease may have run out long ago, so nothing can be said (the save waits).
    placement: async (key) => live().placement(key),
    settledKeys: async (keys) => live().settledKeys(keys),
    status: async () => live().status(),
    onReachability(listener) {
      reachListeners.add(listener);
      return () => reachListeners.delete(listener);
    },
    setScopes(next) {
      scopes = [...next];
      inner?.setScopes(scopes);
    },
    onTakeover(listener) {
      takeoverListeners.add(listener);
      return () => takeoverListeners.delete(listener);
    },
    async tick() {
      if (inner) return inner.tick();
      if (timer) clearTimeout(timer);
      await tryOpen();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await opening;
      await inner?.close();
    },
  };
}
