import { describe, expect, it } from 'vitest';
import {
  durationSample, learnDuration, learnExecution, nextPollDelayMs, POLL_MARGIN_MS, probeLeadMs, type LearnedDuration, type PollState, type ProgressSample,
} from '../../../main/core/engine/poll-timing';

// Simulates the sandbox's progress curve (queued for 10% of L, then 5-point steps, completed at L) against the
// poll timing, counting status requests and how late completion is seen.
function simulate(durationMs: number, expectedMs: number | null, rttMs = 5): { polls: number; lateMs: number } {
  const progressAt = (t: number) => {
    const queued = durationMs * 0.1;
    if (t >= durationMs) return 100;
    if (t < queued) return 0;
    return Math.min(95, Math.floor(((t - queued) / (durationMs - queued)) * 20) * 5);
  };
  let t = 0;
  let first: ProgressSample | null = null;
  let last: ProgressSample | null = null;
  let overdue = 0;
  let idlePolls = 0;
  for (let polls = 1; polls < 100; polls++) {
    const state: PollState = { elapsedMs: t, first, last, expectedMs, overdue, idlePolls, polls: polls - 1 };
    t += nextPollDelayMs(state) + rttMs;
    const p = progressAt(t);
    if (p === 100) return { polls, lateMs: t - durationMs };
    if (p > 0) { first ??= { atMs: t, progress: p }; last = { atMs: t, progress: p }; } else idlePolls++;
    if (expectedMs !== null && t > expectedMs) overdue++;
    else if (expectedMs === null && last && t > 0 && overdueByRate(t, first, last)) overdue++;
  }
  throw new Error('never completed');
}

function overdueByRate(t: number, first: ProgressSample | null, last: ProgressSample): boolean {
  if (!first || last.progress <= first.progress) return false;
  const rate = (last.progress - first.progress) / (last.atMs - first.atMs);
  return (100 - last.progress - 2.5) / rate - (t - last.atMs) <= 0;
}

describe('adaptive poll timing', () => {
  it.each([10_000, 2_000, 30_000, 500])('L=%i ms, duration unknown: ≤ 6 polls, completion seen within max(1 s, a tenth of L)', (L) => {
    const { polls, lateMs } = simulate(L, null);
    expect(polls).toBeLessThanOrEqual(6);
    expect(lateMs).toBeLessThanOrEqual(Math.max(1000, L * 0.1));
  });

  it('with the duration learned from earlier executions, two polls bracket the end', () => {
    expect(simulate(10_000, 9_990).polls).toBe(2);
    expect(simulate(2_000, 2_000).lateMs).toBeLessThan(100);
  });

  it('learns the duration from the bracket of the last two looks', () => {
    const unsteady = { expectedMs: 2_000, spreadMs: Number.POSITIVE_INFINITY };
    expect(durationSample(2_100, 1_900, unsteady)).toBe(2_000);
    expect(durationSample(2_100, null, unsteady)).toBe(2_100 - 210);
    let expected: number | null = null;
    // A first estimate far too high converges to the truth within a dozen completions.
    expected = 3_000;
    for (let i = 0; i < 12; i++) {
      const probe = expected - probeLeadMs(expected);
      const seen = probe >= 2_000 ? probe : expected + POLL_MARGIN_MS;
      expected = learnDuration(expected, durationSample(seen, probe >= 2_000 ? null : probe, { expectedMs: expected, spreadMs: Number.POSITIVE_INFINITY }));
    }
    expect(Math.abs(expected - 2_000)).toBeLessThan(150);
  });

  it('backs off while an execution is overdue', () => {
    const late = simulate(10_000, 5_000);
    expect(late.polls).toBeLessThanOrEqual(8);
    expect(late.lateMs).toBeLessThanOrEqual(1000);
  });

  // A batch's executions one after another, with the timing learned from each completion as the engine does.
  function batch(L: number, jitterMs: number, n = 300): { lateMs: number; polls: number } {
    let seed = 7;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    let learned: LearnedDuration | null = { expectedMs: L * 1.05, spreadMs: Number.POSITIVE_INFINITY };
    let late = 0;
    let polls = 0;
    for (let i = 0; i < n; i++) {
      const duration = L + (random() * 2 - 1) * jitterMs;
      let t = 0;
      let overdue = 0;
      let lastPending: number | null = null;
      for (let p = 0; ; p++) {
        t += nextPollDelayMs({ elapsedMs: t, first: null, last: null, expectedMs: learned.expectedMs, spreadMs: learned.spreadMs, overdue, idlePolls: 0, polls: p }) + 2;
        polls++;
        if (t >= duration) break;
        lastPending = t;
        if (t > learned.expectedMs) overdue++;
      }
      late += t - duration;
      learned = learnExecution(learned, t, lastPending);
    }
    return { lateMs: late / n, polls: polls / n };
  }

  it('looks tightly around the end of steady executions: at L = 10 s a completion is seen within tens of ms, not hundreds', () => {
    const steady = batch(10_000, 0);
    expect(steady.lateMs).toBeLessThan(30);
    expect(steady.polls).toBeLessThanOrEqual(2.2);
    expect(batch(2_000, 5).lateMs).toBeLessThan(20);
  });

  it('keeps the wider looks when durations vary, within 6 status requests per execution', () => {
    for (const [L, jitter] of [[2_000, 200], [10_000, 1_000], [30_000, 3_000]] as const) {
      const varied = batch(L, jitter);
      expect(varied.polls).toBeLessThanOrEqual(6);
      expect(varied.lateMs).toBeLessThan(L * 0.05);
    }
  });
});
