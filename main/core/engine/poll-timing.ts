// When to look at an execution next. Polling is timed from what is known about how long executions take, so that
// a 10 s execution costs a handful of status requests yet its completion is seen within a fraction of a second:
// - expected duration known (earlier executions of the batch): sleep until just after it;
// - else progress known: extrapolate the end from the progress rate between two samples (or, with one sample,
//   sleep part of the way and take a second one);
// - overdue: short, growing steps.

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
  /** Consecutive polls that found it not done after the predicted end. */
  overdue: number;
  /** Polls so far that saw no progress at all. */
  idlePolls: number;
  /** Status requests made for this execution so far. */
  polls: number;
}

export const POLL_MARGIN_MS = 10;
const MIN_STEP_MS = 25;
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

/** How far before the expected end the first look goes, so a completion is bracketed (and learned) tightly. */
export function probeLeadMs(expectedMs: number): number {
  return Math.max(40, expectedMs * 0.03);
}

export function nextPollDelayMs(state: PollState): number {
  // Duration known: one look just before the expected end, one just after it.
  if (state.expectedMs !== null && state.polls === 0) {
    return Math.max(0, state.expectedMs - probeLeadMs(state.expectedMs) - state.elapsedMs);
  }
  const prediction = predictRemainingMs(state);
  if (prediction === null) {
    // Nothing known yet (queued, no history): look soon, then less and less often.
    return Math.min(5_000, 500 * 2 ** Math.min(state.idlePolls, 4));
  }
  const { remainingMs, confident } = prediction;
  if (remainingMs <= MIN_STEP_MS / 2) {
    const base = state.expectedMs ? Math.max(MIN_STEP_MS, state.expectedMs * 0.02) : MIN_STEP_MS;
    return Math.min(2_000, Math.max(MIN_STEP_MS, base * 2 ** Math.min(state.overdue, 5)));
  }
  // One progress sample only: go part of the way and measure the rate.
  if (!confident) return Math.min(MAX_SLEEP_MS, Math.max(MIN_STEP_MS, remainingMs * 0.4));
  return Math.min(MAX_SLEEP_MS, remainingMs + POLL_MARGIN_MS);
}

/**
 * What a completion says about the duration: the midpoint of the last look that found it unfinished and the look
 * that found it done; without an earlier look, only that it took at most this long (assume a tenth less).
 */
export function durationSample(observedMs: number, lastPendingMs: number | null, expectedMs: number | null): number {
  if (lastPendingMs !== null) return (lastPendingMs + observedMs) / 2;
  // Only an upper bound: step well below it (a tenth), or a too-high first estimate would take dozens of
  // completions to come down with the lead as small as it is.
  return Math.max(0, observedMs - Math.max(probeLeadMs(expectedMs ?? observedMs), observedMs * 0.1));
}

/** Updates a batch's expected duration after a completion was seen. */
export function learnDuration(previous: number | null, sample: number): number {
  if (previous === null) return sample;
  return previous * 0.7 + sample * 0.3;
}
