import { hostname } from 'node:os';
import type pg from 'pg';
import type { StudioStatus } from '../../../shared/studio/model';
import { isAppError } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import type { KeytarLike } from '../secrets';
import type { HotFolderLedger } from '../watch/ports';
import type { ClaimRequest, Ledger, LedgerRecord } from './ledger';
import type { PlacementVerdict } from '../engine/runner-core';
import { parseLedgerUrl, type LedgerTarget } from './ledger-url';
import { resolveLedgerPassword } from './password';
import { claim, getOutcome, markAccepted, markNotSent, markSubmitting, recordOutcome, release, setFolderBudget } from './pg-claims';
import { releaseUnjournaled, settleFromLocal, sweepSubmitting } from './start-sweeps';
import { heartbeat, placementOwner, registerInstance, settledKeys, stopInstance, takeOver, type FollowScope, type TakenOver } from './pg-instances';
import { migrateLedger } from './pg-migrations';
import { createLedgerPool, ledgerError } from './pg-pool';
import { runRetention, type RetentionOptions } from './pg-retention';
import { readStatus } from './pg-status';

const MAX_UNSENT_CLAIMS = 10_000; // claims answered here, not sent yet, remembered to be asked again (submitting)

export interface StudioLedgerOptions {
  url: string;
  /** Stable per state dir, so a restarted instance finds its own claims again. */
  instanceId: string;
  version: string;
  label?: string | null;
  env: Record<string, string | undefined>;
  keytar?: () => Promise<KeytarLike>;
  logger?: Logger;
  /** How long a claim outlives its owner's last heartbeat (default 30 s); heartbeats come every third of it. */
  leaseMs?: number;
  heartbeatMs?: number;
  /** Settings' studioLedgerAllowPlaintext: a ledger on another machine without TLS is refused unless it is true. */
  allowPlaintext?: boolean;
  /** The local journal's ledger: outcomes are written there too (crash reconciliation and offline history). */
  local?: HotFolderLedger;
  /**
   * True when the local journal (recovered already) proves no request was sent for this key: its item is back to
   * be sent, and none of it may have been. Our claims left `submitting` are then claimed again rather than unknown.
   */
  unsentLocally?: (key: string) => boolean;
  /**
   * Of the given keys, those the local journal has a record of (local-unsent.ts localClaimKeys). Our claims still
   * `claimed` from a previous run that it has none of are given back at start: claimed, then the process ended (kill
   * -9, a lost reply) before the photo reached the journal, so nothing here would ever send it, and as "taken" by a
   * live instance (this one) no other instance would either. Without it nothing is given back.
   */
  knownLocally?: (keys: readonly string[]) => ReadonlySet<string>;
  /** The retention rule (pg-retention.ts); `checkMs`: how often this instance asks whether it is due (default hourly). */
  retention?: RetentionOptions & { checkMs?: number };
}

export interface StudioLedger extends Ledger {
  placement(key: string): Promise<PlacementVerdict>;
  readonly instanceId: string;
  readonly target: LedgerTarget;
  /** False while the database cannot be reached: nothing is claimed meanwhile. */
  readonly reachable: boolean;
  onReachability(listener: (reachable: boolean, reason: string | null) => void): () => void;
  /** What this instance can follow on takeover (its armed folders); the heartbeat sweeps for these. */
  setScopes(scopes: readonly FollowScope[]): void;
  onTakeover(listener: (items: TakenOver[]) => void | Promise<void>): () => void;
  /** One heartbeat + takeover sweep now (tests; the timer does it otherwise). */
  tick(): Promise<void>;
  status(): Promise<StudioStatus>;
  /** Ends the lease (others take over at once) and closes the pool. */
  close(): Promise<void>;
}

/** Connects, migrates the schema, registers this instance and starts its heartbeat. Fails fast if unreachable. */
export async function openStudioLedger(options: StudioLedgerOptions): Promise<StudioLedger> {
  const target = parseLedgerUrl(options.url);
  const logger = (options.logger ?? silentLogger).child('studio');
  const leaseMs = options.leaseMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(250, Math.floor(leaseMs / 3));
  const pool: pg.Pool = await createLedgerPool({
    target, logger, allowPlaintext: options.allowPlaintext ?? false, password: () => resolveLedgerPassword(target, { env: options.env, ...(options.keytar ? { keytar: options.keytar } : {}) }),
  });
  const me = options.instanceId;
  try {
    const client = await pool.connect();
    try {
      await migrateLedger(client);
    } finally {
      client.release();
    }
    await registerInstance(pool, { id: me, host: hostname(), pid: process.pid, version: options.version, label: options.label ?? null }, leaseMs);
    await sweepSubmitting(pool, me, options.unsentLocally);
    if (options.local) await settleFromLocal(pool, me, options.local);
    if (options.knownLocally) await releaseUnjournaled(pool, me, options.knownLocally);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw ledgerError(error, target.display);
  }

  const folderKeys = new Map<string, string>();
  /**
   * Outcomes the database could not take when they happened (it was unreachable): the local journal has them, the
   * claim rows get them on the next heartbeat that reaches the database. Without this a claim would stay
   * "submitted" by a live instance for ever and its budget reservation would never turn into the real charge.
   */
  const pending = new Map<string, LedgerRecord>();
  /** Claims answered 'claimed' here, not marked submitting yet: what a claim a server crash lost is asked again with. */
  const unsentClaims = new Map<string, ClaimRequest>();
  const reachListeners = new Set<(reachable: boolean, reason: string | null) => void>();
  const takeoverListeners = new Set<(items: TakenOver[]) => void | Promise<void>>();
  let reachable = true;
  /**
   * When the last renewal that reached the database was sent: the lease runs from after it. Both clocks: the
   * monotonic one does not count a suspended machine's sleep (a closed laptop lid), the wall clock may be set back.
   */
  let renewed = { mono: performance.now(), wall: Date.now() };
  const sinceRenewal = () => Math.max(performance.now() - renewed.mono, Date.now() - renewed.wall);
  let scopes: readonly FollowScope[] = [];
  let closed = false;

  const setReachable = (value: boolean, reason: string | null) => {
    if (value === reachable) return;
    reachable = value;
    if (value) logger.info('studio ledger reachable again', { ledger: target.display });
    else logger.warn('studio ledger unreachable: claiming paused', { ledger: target.display, reason });
    for (const listener of reachListeners) listener(value, reason);
  };

  /** Every ledger call: connection failures flip the reachability state (and come back as AppError 'unavailable'). */
  const op = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      setReachable(true, null);
      return result;
    } catch (error) {
      const appError = ledgerError(error, target.display);
      if (appError.code === 'unavailable') setReachable(false, appError.message);
      throw appError;
    }
  };

  const retentionCheckMs = options.retention?.checkMs ?? 3_600_000;
  let retentionAskedAt = Number.NEGATIVE_INFINITY;
  /** Asks at most every `checkMs` whether the retention rule is due; the instance that gets its lock runs it. */
  const retention = async () => {
    if (Date.now() - retentionAskedAt < retentionCheckMs) return;
    retentionAskedAt = Date.now();
    try {
      const result = await op(() => runRetention(pool, options.retention));
      if (result.ran) logger.info('studio ledger retention ran', { removed: result.removed });
    } catch (error) {
      logger.debug('studio ledger retention failed', { error: (error as Error).message });
    }
  };

  let ticking: Promise<void> | null = null;
  const tick = async () => {
    if (closed) return;
    if (ticking) return ticking;
    ticking = (async () => {
      try {
        const sentAt = { mono: performance.now(), wall: Date.now() };
        const alive = await op(() => heartbeat(pool, me, leaseMs));
        if (alive) renewed = sentAt;
        if (!alive) await op(() => registerInstance(pool, { id: me, host: hostname(), pid: process.pid, version: options.version, label: options.label ?? null }, leaseMs));
        for (const [key, entry] of [...pending]) {
          await op(() => recordOutcome(pool, me, folderKeyOf(entry), entry));
          pending.delete(key);
        }
        await retention();
        if (scopes.length === 0 || takeoverListeners.size === 0) return;
        const taken = await op(() => takeOver(pool, me, scopes));
        if (taken.length === 0) return;
        logger.info('took over claims of a stopped instance', { count: taken.length, from: [...new Set(taken.map((t) => t.previousHost))] });
        for (const listener of takeoverListeners) await listener(taken);
      } catch (error) {
        if (!closed) logger.debug('studio heartbeat failed', { error: (error as Error).message });
      }
    })().finally(() => {
      ticking = null;
    });
    return ticking;
  };
  const timer = setInterval(() => void tick(), heartbeatMs);
  timer.unref();

  const folderKeyOf = (entry: LedgerRecord) => (entry.hotFolderId && folderKeys.get(entry.hotFolderId)) || entry.hotFolderId || 'unnamed';

  return {
    shared: true,
    describe: target.display,
    instanceId: me,
    target,
    get reachable() { return reachable; },
    get: (key) => op(() => getOutcome(pool, key)),
    async record(entry) {
      await options.local?.record(entry);
      try {
        await op(() => recordOutcome(pool, me, folderKeyOf(entry), entry));
        pending.delete(entry.key);
      } catch (error) {
        if (!isAppError(error) || error.code !== 'unavailable') throw error;
        pending.set(entry.key, entry);
      }
    },
    async setFolder(folderKey, budget, hotFolderId?: string) {
      if (hotFolderId) folderKeys.set(hotFolderId, folderKey);
      await op(() => setFolderBudget(pool, folderKey, budget));
    },
    async claim(request) {
      const result = await op(() => claim(pool, me, request));
      if (result.kind === 'claimed') {
        unsentClaims.set(request.key, request);
        // Bounded: a claim whose photo was never sent nor given back (cancelled meanwhile) is forgotten oldest first.
        if (unsentClaims.size > MAX_UNSENT_CLAIMS) unsentClaims.delete(unsentClaims.keys().next().value!);
      }
      return result;
    },
    async release(key) {
      await op(() => release(pool, me, key));
      unsentClaims.delete(key);
    },
    async submitting(key) {
      try {
        await op(() => markSubmitting(pool, me, key));
      } catch (error) {
        // A claim commits before its WAL reaches the disk (pg-claims.ts claim): a server crash in between loses it,
        // with nothing sent. Asked again like any photo; another instance that got it meanwhile keeps it.
        const request = unsentClaims.get(key);
        if (!request || !isAppError(error) || error.detail.claimGone !== true) throw error;
        if ((await op(() => claim(pool, me, request))).kind !== 'claimed') throw error;
        await op(() => markSubmitting(pool, me, key));
      }
      unsentClaims.delete(key);
    },
    notSent: (key) => op(() => markNotSent(pool, me, key)),
    async accepted(key, executionId, credits, batch) {
      const recorded = await op(() => markAccepted(pool, me, key, executionId, credits, batch));
      if (!recorded) logger.warn('execution id recorded locally only: the studio claim is held elsewhere', { executionId });
    },
    onReachability(listener) {
      reachListeners.add(listener);
      return () => reachListeners.delete(listener);
    },
    setScopes(next) {
      scopes = [...next];
    },
    onTakeover(listener) {
      takeoverListeners.add(listener);
      return () => takeoverListeners.delete(listener);
    },
    settledKeys: (keys) => op(() => settledKeys(pool, keys)),
    async placement(key) {
      const sentAt = { mono: performance.now(), wall: Date.now() };
      // Renewed within the last third of the lease (a heartbeat, the last placement): it holds for two thirds more.
      const fresh = sinceRenewal() < leaseMs / 3;
      try {
        const claimOwner = await op(() => placementOwner(pool, me, key, fresh ? null : leaseMs));
        if (!fresh) renewed = sentAt;
        if (!claimOwner?.owner || claimOwner.owner === me) return { ours: true };
        return { ours: false, reason: `not saved here: the instance on ${claimOwner.host ?? claimOwner.owner} took this photo over while this machine was paused past its studio lease, and saves its result (paid once)` };
      } catch (error) {
        // Unreachable while the lease renewed last is surely still running (a third of it kept for the rename): no
        // other instance can have taken the photo over yet.
        if (isAppError(error) && error.code === 'unavailable' && sinceRenewal() < (leaseMs * 2) / 3) return { ours: true };
        throw error;
      }
    },
    tick,
    status: () => op(() => readStatus(pool, target.display)),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await ticking;
      await stopInstance(pool, me).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
