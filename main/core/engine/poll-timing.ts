// When to look at an execution next. Polling is timed from what is known about how long executions take, so that
// a 10 s execution costs a handful of status requests yet its completion is seen within a fraction of a second:
// - expected duration known (earlier executions of the batch): sleep until just after it;
// - else progress known: extrapolate the end from the progress rate;
// - overdue: short, growing steps.

export interface PollState {
  /** ms since the execution was accepted. */
  elapsedMs: number;
  /** 0–100 as last reported. */
  progress: number;
  /** Typical accept→complete time for this batch, when measured. */
  expectedMs: number | null;
  /** Consecutive polls that found it not done after the predicted end. */
  overdue: number;
  queued: boolean;
}

export const POLL_MARGIN_MS = 25;
const MIN_STEP_MS = 60;
const MAX_SLEEP_MS = 15_000;

export function predictRemainingMs(state: PollState): number | null {
  const fromProgress = state.progress > 0 && !state.queued
    // The sandbox (and most services) report progress in coarse steps: assume we are mid-step.
    ? (state.elapsedMs * (100 - Math.min(99, state.progress + 2.5))) / Math.min(99, state.progress + 2.5)
    : null;
  const fromHistory = state.expectedMs !== null ? state.expectedMs - state.elapsedMs : null;
  if (fromHistory !== null && (fromProgress === null || fromHistory > 0)) return fromHistory;
  return fromProgress;
}

export function nextPollDelayMs(state: PollState): number {
  const remaining = predictRemainingMs(state);
  if (remaining === null) {
    // Nothing known yet: a first look soon, then back off while it sits queued.
    return Math.min(MAX_SLEEP_MS, 500 * 2 ** Math.min(state.overdue, 5));
  }
  if (remaining <= MIN_STEP_MS / 2) {
    const base = state.expectedMs ? Math.max(MIN_STEP_MS, state.expectedMs * 0.02) : MIN_STEP_MS;
    return Math.min(2_000, Math.max(MIN_STEP_MS, base * 2 ** Math.min(state.overdue, 5)));
  }
  // Far from the end, re-check once near it (the estimate improves); close to it, aim just past it.
  if (remaining > 3_000 && state.expectedMs === null) return Math.min(MAX_SLEEP_MS, remaining * 0.85);
  return Math.min(MAX_SLEEP_MS, remaining + POLL_MARGIN_MS);
}

/** Updates a batch's expected duration after a completion was seen. */
export function learnDuration(previous: number | null, sample: number): number {
  if (previous === null) return sample;
  return previous * 0.7 + sample * 0.3;
}
