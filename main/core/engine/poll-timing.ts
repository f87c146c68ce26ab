// When to look at an execution next. Polling is timed from what is known about how long executions take, so that
// a 10 s execution costs a handful of status requests yet its completion is seen within a fraction of a second:
// - expected duration known (earlier executions of the batch): sleep until just after it;
// - else progress known: extrapolate the end from the progress rate between two samples (or, with one sample,
//   sleep part of the way and take a second one);
// - overdue: short, growing steps.

import { BACKOFF, backoffDelay } from '../service/retry';

export interface ProgressSample {
  /** ms since the execution was accepted. */
  atMs: number;
  /** 0–100 as reported. */
  progress: number;
}

export interface PollState {
  /** ms since the execution was accepted. */
  elapsedMs: number;
  /** First sample with progress > 0, and the latest one. */
  first: ProgressSample | null;
  last: ProgressSample | null;
  /** Typical accept → complete time for this batch, when measured. */
  expectedMs: number | null;
  /** How far completions have fallen outside the looks around the expected end (0: always between them). */
  spreadMs?: number;
  /** Consecutive polls that found it not done after the predicted end. */
  overdue: number;
  /** Polls so far that saw no progress at all. */
  idlePolls: number;
  /** Status requests made for this execution so far. */
  polls: number;
  /** How long a status request takes to be answered (typical, ms), when measured. */
  answerMs?: number;
}

export const POLL_MARGIN_MS = 10;
const MIN_STEP_MS = 25;
/** Tight looks past the expected end of a steady batch before backing off as for varied durations. */
const STEADY_OVERDUE_LOOKS = 5;
const MAX_SLEEP_MS = 15_000;
/** Services report progress in coarse steps (the sandbox: 5 points); a sample is taken to sit mid-step. */
const HALF_STEP = 2.5;

/** ms from now until the predicted completion, or null when nothing is known yet. */
export function predictRemainingMs(state: PollState): { remainingMs: number; confident: boolean } | null {
  const { first, last, elapsedMs } = state;
  if (state.expectedMs === null && first && last && last.progress > first.progress && last.atMs > first.atMs) {
    const rate = (last.progress - first.progress) / (last.atMs - first.atMs);
    const remaining = (100 - Math.min(99, last.progress + HALF_STEP)) / rate - (elapsedMs - last.atMs);
    return { remainingMs: remaining, confident: true };
  }
  if (state.expectedMs !== null) return { remainingMs: state.expectedMs - elapsedMs, confident: true };
  if (last && last.progress > 0) {
    const p = Math.min(99, last.progress + HALF_STEP);
    return { remainingMs: (last.atMs * (100 - p)) / p - (elapsedMs - last.atMs), confident: false };
  }
  return null;
}

/**
 * Durations this steady (the spread within 1 % of the duration, or 10 ms) are looked at tightly around their end:
 * at L = 10 s the 3 % lead and 2 % overdue steps made for when durations vary cost 100–200 ms per execution.
 */
export function isSteady(expectedMs: number, spreadMs: number | undefined): boolean {
  return spreadMs !== undefined && spreadMs <= Math.max(10, expectedMs * 0.01);
}

/** How far before the expected end the first look goes, so a completion is bracketed (and learned) tightly. */
export function probeLeadMs(expectedMs: number, spreadMs?: number): number {
  return isSteady(expectedMs, spreadMs) ? Math.max(20, 2 * spreadMs!) : Math.max(40, expectedMs * 0.03);
}

/** After the end was expected: a steady batch's look lands just past it by a fraction of its spread. */
function marginMs(state: PollState): number {
  return state.expectedMs !== null && isSteady(state.expectedMs, state.spreadMs) ? Math.max(5, 0.8 * state.spreadMs!) : POLL_MARGIN_MS;
}

export function nextPollDelayMs(state: PollState): number {
  // Duration known: one look just before the expected end, one just after it. The first leaves early by the time
  // an answer takes, so that it is back before the end and the second can leave just after it: with slow answers (a
  // loaded machine, 30–40 ms) it came back after the end, and the second look left one answer and one overdue step
  // late (simulated at L = 2 s: completions seen 54–69 ms late, now 39–49). At most 5 % of the duration: one answer
  // that took seconds moves the first look earlier, never adds looks (the second is still timed to just after the end).
  if (state.expectedMs !== null && state.polls === 0) {
    return Math.max(0, state.expectedMs - probeLeadMs(state.expectedMs, state.spreadMs) - Math.min(state.answerMs ?? 0, state.expectedMs * 0.05) - state.elapsedMs);
  }
  const prediction = predictRemainingMs(state);
  if (prediction === null) {
    // Nothing known yet (queued, no history): look soon, then less and less often.
    return backoffDelay(BACKOFF.idlePoll, state.idlePolls);
  }
  const { remainingMs, confident } = prediction;
  if (remainingMs <= MIN_STEP_MS / 2) {
    // Overdue. A steady batch's first five looks past the end are tight (15 ms growing to 76 ms: 200 ms in all);
    // beyond them this execution is not behaving like the rest (queued at the service, a slow one), so it backs off
    // as for varied durations — and past 20 s in steps of a tenth of its age: a 2 s batch's one 20 s execution costs
    // 20 looks, not 54 at 0.4 s.
    const steady = state.expectedMs !== null && isSteady(state.expectedMs, state.spreadMs);
    if (steady && state.overdue < STEADY_OVERDUE_LOOKS) return Math.max(15, 0.4 * state.spreadMs!) * 1.5 ** state.overdue;
    // The wider steps start from their base where the tight ones ended (not at the power they would have reached).
    const steps = steady ? state.overdue - STEADY_OVERDUE_LOOKS : state.overdue;
    const base = state.expectedMs ? Math.max(MIN_STEP_MS, state.expectedMs * 0.02) : MIN_STEP_MS;
    const cap = Math.min(MAX_SLEEP_MS, Math.max(2_000, state.elapsedMs * 0.1));
    // The cap is at least 2 s, so it is never below MIN_STEP_MS: floor then cap equals the old cap-of-floor.
    return Math.max(MIN_STEP_MS, backoffDelay({ firstMs: base, maxMs: cap, maxDoublings: 10 }, steps));
  }
  // One progress sample only: go part of the way and measure the rate.
  if (!confident) return Math.min(MAX_SLEEP_MS, Math.max(MIN_STEP_MS, remainingMs * 0.4));
  return Math.min(MAX_SLEEP_MS, remainingMs + marginMs(state));
}

/** What is learned of a batch's executions: the expected duration and how far completions stray from it. */
export interface LearnedDuration {
  expectedMs: number;
  spreadMs: number;
  /** Steady completions in a row already done at the first look (three in a row: the service may have sped up). */
  earlyInARow?: number;
}

/**
 * What a completion says about the duration, from the look that found it done and the last that did not. A steady
 * batch whose end fell between the two looks around the prediction keeps the prediction (edged down by a
 * millisecond, so it stays tight): the middle of that bracket says more about where the looks were than about the
 * end. Otherwise the middle of the bracket; without an earlier look, only that it took at most this long (assume a
 * tenth less, or two leads for a steady batch).
 */
export function durationSample(observedMs: number, lastPendingMs: number | null, learned: LearnedDuration | null): number {
  const expected = learned?.expectedMs ?? null;
  const steady = learned !== null && isSteady(learned.expectedMs, learned.spreadMs);
  if (lastPendingMs !== null) {
    if (steady && lastPendingMs <= expected! && expected! <= observedMs) return expected! - 1;
    return (lastPendingMs + observedMs) / 2;
  }
  if (steady) return Math.max(0, observedMs - 2 * probeLeadMs(expected!, learned.spreadMs));
  // Only an upper bound: step well below it (a tenth), or a too-high first estimate would take dozens of
  // completions to come down with the lead as small as it is.
  return Math.max(0, observedMs - Math.max(probeLeadMs(expected ?? observedMs), observedMs * 0.1));
}

/** Updates a batch's learned duration after a completion was seen (`lastPendingMs`: the last look that found it running). */
export function learnExecution(previous: LearnedDuration | null, observedMs: number, lastPendingMs: number | null): LearnedDuration {
  if (previous === null) return { expectedMs: durationSample(observedMs, lastPendingMs, null), spreadMs: Number.POSITIVE_INFINITY };
  const e = previous.expectedMs;
  // One execution far slower than the rest (queued behind others at the service) moves the expectation at most to
  // twice what it was: unclamped, a single 60 s one among 2 s ones had the next dozen looked at 15 s late.
  const sample = Math.min(2 * e, durationSample(observedMs, lastPendingMs, previous));
  // A steady batch whose first look already found it done may have sped up: that look says only that it ended
  // earlier, and steady looks would learn how much at a few ms per completion. Three times in a row, it leaves
  // steady mode until a completion is bracketed again, and a real speed-up is learned at 10 % a time; once or twice
  // is more often noise (a late answer to the POST): leaving on two cost 10 ms of lag per execution at L = 10 s with
  // ±50 ms of jitter (simulated, 400 executions: 24 → 33 ms; three: 24).
  const early = lastPendingMs === null && isSteady(e, previous.spreadMs) ? (previous.earlyInARow ?? 0) + 1 : 0;
  if (early >= 3) return { expectedMs: learnDuration(e, sample), spreadMs: Number.POSITIVE_INFINITY, earlyInARow: 0 };
  // How wrong the prediction was at least: 0 when the end fell between the looks on either side of it.
  const missed = lastPendingMs !== null
    ? (lastPendingMs <= e && e <= observedMs ? 0 : Math.min(Math.abs(e - lastPendingMs), Math.abs(e - observedMs)))
    : Math.abs(e - observedMs);
  const spread = Number.isFinite(previous.spreadMs) ? previous.spreadMs * 0.8 + missed * 0.2 : missed;
  return { expectedMs: learnDuration(e, sample), spreadMs: spread, earlyInARow: early };
}

/** An exponential moving average of durations (also the download pool's per-item time). */
export function learnDuration(previous: number | null, sample: number): number {
  if (previous === null) return sample;
  return previous * 0.7 + sample * 0.3;
}
