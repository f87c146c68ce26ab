import { isAppError } from '../../../shared/errors';
import type { BatchRecord, ItemRecord } from '../journal/types';
import { learnDuration, learnExecution, nextPollDelayMs, predictRemainingMs, type LearnedDuration, type ProgressSample } from './poll-timing';
import { nowMs } from './clock';
import { BACKOFF, backoffDelay } from '../service/retry';
import { addPhase } from './phase-times';
import { lostEntryOf, updateWithLedger } from './done-record';
import type { RunnerCore } from './runner-core';
import { GateClosed } from './limiter';

// Follows executions from submission to completion. Each one in flight is a Flight holding what polling has learned
// about it; `poll-timing.ts` decides when to look next, this file does the looking and journals what it sees. A
// flight exists from just before the POST, so the flight count is also the count of execution slots in use.

export interface Flight {
  itemId: string;
  batchId: string;
  executionId: string | null;
  acceptedAt: number;
  /** When its slot was taken (just before the POST). */
  trackedAt: number;
  progress: number;
  overdue: number;
  idlePolls: number;
  polls: number;
  first: ProgressSample | null;
  last: ProgressSample | null;
  lastPendingPollAt: number | null;
  timer: NodeJS.Timeout | null;
  cost: number;
  /** Followed again after a restart: its accept → complete time includes the downtime, so nothing is learned from it. */
  recovered: boolean;
}

export class ExecutionFollower {
  private readonly flights = new Map<string, Flight>();
  /** Learned accept → complete time per batch (what a completion was seen to take). */
  private readonly learned = new Map<string, LearnedDuration>();
  /** How long a status answer takes (a moving average over every batch: the same service, the same machine). */
  private answerMs: number | null = null;

  /** onCompleted: the item is `downloading` with its result URLs journalled; queue its download. */
  constructor(private readonly core: RunnerCore, private readonly onCompleted: (itemId: string) => void) {}

  /** Executions in flight (including submissions whose answer has not arrived): the slots in use. */
  get size(): number {
    return this.flights.size;
  }

  track(item: ItemRecord, batch: BatchRecord, acceptedAt: number, options: { recovered?: boolean } = {}): Flight {
    const flight: Flight = {
      itemId: item.id, batchId: batch.id, executionId: item.executionId, acceptedAt, trackedAt: nowMs(), progress: item.progress, overdue: 0,
      idlePolls: 0, polls: 0, first: null, last: null, lastPendingPollAt: null, timer: null, cost: batch.creditCost,
      recovered: options.recovered === true,
    };
    this.flights.set(item.id, flight);
    return flight;
  }

  get(itemId: string): Flight | undefined {
    return this.flights.get(itemId);
  }

  forget(itemId: string): void {
    this.flights.delete(itemId);
  }

  /** On stop: no further polls (the journal still says submitted/running, so start() polls them again). */
  cancelTimers(): void {
    for (const flight of this.flights.values()) if (flight.timer) clearTimeout(flight.timer);
  }

  schedule(flight: Flight, delayMs?: number): void {
    if (this.core.isStopping()) return;
    const delay = delayMs ?? this.pollDelay(flight);
    flight.timer = setTimeout(() => { flight.timer = null; this.core.run(() => this.poll(flight)); }, Math.max(0, delay));
  }

  private pollDelay(flight: Flight): number {
    const learned = this.learned.get(flight.batchId);
    return nextPollDelayMs({
      elapsedMs: nowMs() - flight.acceptedAt, first: flight.first, last: flight.last,
      expectedMs: learned?.expectedMs ?? null, spreadMs: learned?.spreadMs,
      overdue: flight.overdue, idlePolls: flight.idlePolls, polls: flight.polls, answerMs: this.answerMs ?? undefined,
    });
  }

  private async poll(flight: Flight): Promise<void> {
    const { core } = this;
    const { journal } = core.o;
    try {
      await core.gate.acquire();
    } catch (error) {
      if (error instanceof GateClosed) return; // stopped: the journal still says submitted/running, start() polls it again
      throw error;
    }
    if (core.isStopping() || !flight.executionId) return;
    core.stats.statusRequests += 1;
    flight.polls += 1;
    let execution;
    // A "still running" answer says it was running when the service looked, which may be anywhere up to the answer's
    // arrival: only when the request left is a sure lower bound for its end (see lastPendingPollAt below).
    const sentAt = nowMs();
    try {
      execution = await core.o.client.getExecution(flight.executionId);
      core.gate.succeeded();
      this.answerMs = learnDuration(this.answerMs, nowMs() - sentAt);
    } catch (error) {
      if (core.isStopping()) return;
      const code = isAppError(error) ? error.code : 'internal';
      if (code === 'not_found') {
        this.flights.delete(flight.itemId);
        const at = core.o.now().toISOString();
        const item = journal.getItem(flight.itemId);
        const entry = item ? lostEntryOf(item, core.batch(flight.batchId), at, 'charged-no-result') : undefined;
        await updateWithLedger(core, flight.itemId, {
          event: 'execution-gone', completedAt: at,
          reason: `charged, but the service no longer knows execution ${flight.executionId}, so its result cannot be fetched: report it to the provider (Report to provider). Not retried automatically: sending it again charges again`,
        }, entry);
        core.kick();
        return;
      }
      if (code === 'network' || code === 'timeout') core.gate.networkFailed();
      const retryAfter = isAppError(error) && typeof error.detail.retryAfterMs === 'number' ? error.detail.retryAfterMs : null;
      if (retryAfter !== null) core.gate.backOff(retryAfter);
      flight.overdue += 1;
      this.schedule(flight, retryAfter ?? backoffDelay(BACKOFF.statusFailed, flight.overdue - 1));
      return;
    }
    // An answer that comes after the stop is not journalled (the journal may be closing): start() asks again.
    if (core.isStopping()) return;
    const now = nowMs();
    const learned = this.learned.get(flight.batchId) ?? null;
    const expected = learned?.expectedMs ?? null;
    if (execution.status === 'completed') {
      this.flights.delete(flight.itemId);
      addPhase(core.stats.phases, 'slotHeld', now - flight.trackedAt);
      // A restart's recovered execution would teach the downtime as an execution time: every new execution of the
      // batch would then be looked at first only that long after it was accepted, its slot held meanwhile.
      if (!flight.recovered) this.learned.set(flight.batchId, learnExecution(learned, now - flight.acceptedAt, flight.lastPendingPollAt === null ? null : flight.lastPendingPollAt - flight.acceptedAt));
      const at = core.o.now().toISOString();
      journal.updateExecution(flight.executionId, { status: 'completed', completedAt: at });
      core.update(flight.itemId, { event: 'complete', progress: 100, resultUrls: execution.resultUrls, resultLabels: execution.resultLabels ?? [], completedAt: at });
      this.onCompleted(flight.itemId);
      core.kick();
      return;
    }
    if (execution.status === 'failed' || execution.status === 'cancelled') {
      this.flights.delete(flight.itemId);
      const at = core.o.now().toISOString();
      const reason = `the service could not process this image: ${execution.error ?? execution.status}`;
      journal.updateExecution(flight.executionId, { status: execution.status, error: execution.error ?? null, completedAt: at });
      if (execution.status === 'failed') {
        // A failed execution is refunded by the service; the journal's spend follows.
        journal.recordRefund(flight.itemId, reason, at);
        core.credits.refunded(flight.cost);
        core.refreshBatch(flight.batchId);
        core.o.onItem(journal.getItem(flight.itemId)!);
        core.checkBatchDone(flight.batchId);
      } else {
        core.update(flight.itemId, { event: 'execution-cancelled', reason, completedAt: at });
      }
      core.kick();
      return;
    }
    // When the look left, not when its answer came: timed from the answer, a slow one (a loaded machine) put the
    // learned end past the look before it, so each bracket moved the expectation later and the looks with it
    // (simulated, 30–40 ms answers at L = 2 s: completions seen 50–100 ms late in a steady sawtooth).
    flight.lastPendingPollAt = sentAt;
    if (execution.progress > 0) {
      const sample = { atMs: now - flight.acceptedAt, progress: execution.progress };
      flight.first ??= sample;
      flight.last = sample;
    } else {
      flight.idlePolls += 1;
    }
    const prediction = predictRemainingMs({
      elapsedMs: now - flight.acceptedAt, first: flight.first, last: flight.last, expectedMs: expected, spreadMs: learned?.spreadMs,
      overdue: flight.overdue, idlePolls: flight.idlePolls, polls: flight.polls,
    });
    if (prediction && prediction.remainingMs <= 0) flight.overdue += 1;
    const state = execution.status === 'running' ? 'running' : 'submitted';
    if (execution.progress !== flight.progress || state === 'running') {
      flight.progress = execution.progress;
      const current = journal.getItem(flight.itemId);
      if (current && (current.progress !== execution.progress || current.state !== state)) {
        core.update(flight.itemId, { event: state === 'running' ? 'progress' : 'queued', progress: execution.progress });
      }
    }
    this.schedule(flight, Math.max(this.pollDelay(flight), execution.retryAfterMs ?? 0));
  }
}
