import { finishedWithin } from '../finished-within';
import { batchChannels } from '../../../shared/ipc/channels/batches';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import { createBatchHandlers, createEngine, type Engine, type SubmitHooks } from '../engine';
import { consumeOutcomes } from '../engine/outcome-consumer';
import { createEstimateRuns } from '../engine/estimate-runs';
import { openJournal, type Journal } from '../journal';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { EventBus } from './event-bus';
import { beforeStartStep } from './start-steps';
import { acquireEngineLock } from './state-lock';
import { unavailableHandlers } from './unavailable';

/** A hard stop cuts downloads at once and waits ≤ 2 s for them to tidy up (runner.ts): this bounds it regardless. */
const HARD_STOP_MS = 3_000;

/** eager: start with the core (the app, `resume`); lazy: on the first batch call (`run`); off: never (catalog). */
export type EngineMode = 'eager' | 'lazy' | 'off';

type BatchHandlers = DomainHandlers<typeof batchChannels>;

export interface EngineSlot {
  readonly handlers: BatchHandlers;
  /**
   * The running engine (and journal), starting them if needed; rejects when the mode is `off` or the lock is held.
   * `recoverOnly`: the engine recovers but submits nothing until its start() (the core's start calls it last);
   * `signal`: aborted before recovery, the start closes the journal and the lock again and rejects with its reason.
   */
  ensure(options?: { recoverOnly?: boolean; signal?: AbortSignal }): Promise<{ engine: Engine; journal: Journal }>;
  current(): Engine | null;
  stop(graceful: boolean, timeoutMs: number): Promise<void>;
}

export interface EngineSlotDeps {
  mode: EngineMode;
  stateDir: string;
  client: ServiceClient;
  concurrency: () => number;
  /** The result cache's size cap in bytes (setting resultCacheMb), read at each start. */
  resultCacheBytes?: () => number;
  bus: EventBus;
  logger: Logger;
  /** Studio mode's part in each submission (main/core/studio/submit-hooks.ts). */
  submitHooks?: SubmitHooks;
  /** Several machines spend on one key in studio mode: the balance is never evidence there (engine/balance-evidence.ts). */
  studio?: boolean;
}

/**
 * Owns the journal and the engine behind the state dir's engine lock. Recovery runs at start: executions the
 * journal knows are polled again and unsaved results fetched — never resubmitted.
 */
export function createEngineSlot(deps: EngineSlotDeps): EngineSlot {
  let starting: Promise<{ engine: Engine; journal: Journal; handlers: BatchHandlers; unsubscribe: () => void; release: () => void }> | undefined;
  let running: Awaited<NonNullable<typeof starting>> | undefined;

  const start = async ({ recoverOnly = false, signal }: { recoverOnly?: boolean; signal?: AbortSignal } = {}) => {
    const release = acquireEngineLock(deps.stateDir);
    let journal: Journal | undefined;
    let engine: Engine | undefined;
    let unsubscribe = () => {};
    try {
      journal = openJournal(deps.stateDir, {
        transitions: { report: (error, attention) => deps.logger.error('illegal item transition refused: item parked', { itemId: error.itemId, from: error.from, event: error.event, attention }) },
      });
      engine = createEngine({
        journal, client: deps.client, logger: deps.logger, concurrency: deps.concurrency(), ...(deps.submitHooks ? { submitHooks: deps.submitHooks } : {}),
        ...(deps.resultCacheBytes ? { resultCacheBytes: deps.resultCacheBytes() } : {}),
        ...(deps.studio ? { balanceEvidence: false as const } : {}),
      });
      const estimates = createEstimateRuns();
      const stopEstimates = estimates.onProgress((progress) => deps.bus.emit('batches:estimateProgress', progress));
      const stopProgress = engine.onProgress((event) => deps.bus.emit('batches:progress', event));
      // A live relay of the outcome outbox (consumer "events"): listeners (the CLI's item lines, notifications)
      // see every attempt's outcome once, including one recorded while this host was between its last event and a
      // crash. Started before the engine so recovery's outcomes are relayed too.
      const opened = journal;
      const relay = consumeOutcomes(opened, 'events', (outcome) => {
        const displayName = opened.getItem(outcome.itemId)?.displayName ?? outcome.itemId;
        deps.bus.emit('batches:outcome', { ...outcome, displayName });
      }, { onError: (error) => deps.logger.warn('outcome relay failed', { error: String(error) }) });
      unsubscribe = () => { stopProgress(); stopEstimates(); relay.stop(); };
      beforeStartStep('recovery', signal, deps.logger);
      await (recoverOnly ? engine.recover() : engine.start());
      running = { engine, journal, handlers: createBatchHandlers(engine, estimates), unsubscribe, release };
      return running;
    } catch (error) {
      // In the reverse order of the above: a start stopped (or failed) half way leaves no journal open, no lock held.
      await engine?.stop({ graceful: false }).catch(() => undefined);
      unsubscribe();
      journal?.close();
      release();
      throw error;
    }
  };
  const ensure = (options?: Parameters<EngineSlot['ensure']>[0]) => {
    if (deps.mode === 'off') return Promise.reject(new Error('the engine is off in this core'));
    starting ??= start(options);
    starting.catch(() => {
      starting = undefined; // a held lock may be released later: let the next call try again
    });
    return starting;
  };

  const handlers = (deps.mode === 'off'
    ? unavailableHandlers(batchChannels, 'Batches are not available in this command.')
    : Object.fromEntries(
        Object.keys(batchChannels)
          .filter((name) => batchChannels[name as keyof typeof batchChannels].kind === 'invoke')
          .map((name) => [name, async (args: unknown) => {
            const { handlers: real } = await ensure();
            return (real as Record<string, (a: unknown) => unknown>)[name]!(args);
          }]),
      )) as BatchHandlers;

  return {
    handlers,
    ensure,
    current: () => running?.engine ?? null,
    async stop(graceful, timeoutMs) {
      if (!starting) return;
      const started = await starting.catch(() => null);
      if (!started) return;
      const stopped = await finishedWithin(started.engine.stop({ graceful }), timeoutMs);
      if (!stopped) {
        // A graceful stop that outlasts the host's patience (a download crawling on a slow link) is made a hard
        // one before the journal closes: downloads and saves in progress are cut and left for the next start,
        // rather than writing into a closed journal and an output folder the app no longer watches.
        deps.logger.warn('engine did not stop in time', { graceful });
        if (graceful && !(await finishedWithin(started.engine.stop({ graceful: false }), HARD_STOP_MS))) {
          deps.logger.warn('engine did not stop in time after cutting its downloads');
        }
      }
      started.unsubscribe();
      started.journal.close();
      started.release();
    },
  };
}
