import { describe, expect, it } from 'vitest';
import {
  durationSample, isSteady, learnDuration, learnExecution, nextPollDelayMs, POLL_MARGIN_MS, probeLeadMs, type LearnedDuration, type PollState, type ProgressSample,
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

  // A batch's executions one after another, with the timing learned from each completion as the engine does
  // (an execution counts as overdue once a look at or after its expected end found it running).
  function follow(durations: readonly number[], start: LearnedDuration): { late: number[]; polls: number[]; learned: LearnedDuration } {
    let learned = start;
    const late: number[] = [];
    const polls: number[] = [];
    for (const duration of durations) {
      let t = 0;
      let overdue = 0;
      let lastPending: number | null = null;
      let p = 0;
      for (; ; p++) {
        t += nextPollDelayMs({ elapsedMs: t, first: null, last: null, expectedMs: learned.expectedMs, spreadMs: learned.spreadMs, overdue, idlePolls: 0, polls: p }) + 2;
        if (t >= duration) break;
        lastPending = t;
        if (t >= learned.expectedMs) overdue++;
      }
      late.push(t - duration);
      polls.push(p + 1);
      learned = learnExecution(learned, t, lastPending);
    }
    return { late, polls, learned };
  }

  function batch(L: number, jitterMs: number, n = 300): { lateMs: number; polls: number } {
    let seed = 7;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const run = follow(Array.from({ length: n }, () => L + (random() * 2 - 1) * jitterMs), { expectedMs: L * 1.05, spreadMs: Number.POSITIVE_INFINITY });
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    return { lateMs: mean(run.late), polls: mean(run.polls) };
  }

  /** What a batch has learned after 50 executions of exactly L. */
  const steadyAt = (L: number): LearnedDuration => follow(Array.from({ length: 50 }, () => L), { expectedMs: L * 1.05, spreadMs: Number.POSITIVE_INFINITY }).learned;

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

  it('backs off from one execution that runs 10× longer than a steady batch: 20 looks, not 54 at 0.4 s', () => {
    const learned = steadyAt(2_000);
    expect(isSteady(learned.expectedMs, learned.spreadMs)).toBe(true);
    const slow = follow([20_000], learned);
    expect(slow.polls[0]).toBeLessThanOrEqual(20);
    expect(slow.late[0]).toBeLessThan(2_500);
  });

  it('learns a service that got twice as fast within 20 executions', () => {
    const run = follow(Array.from({ length: 40 }, () => 5_000), steadyAt(10_000));
    expect(Math.max(...run.late.slice(20))).toBeLessThan(250);
    expect(Math.max(...run.polls.slice(20))).toBeLessThanOrEqual(6);
  });

  it('is not thrown off by one execution 30× slower than the rest', () => {
    const run = follow([60_000, ...Array.from({ length: 30 }, () => 2_000)], steadyAt(2_000));
    expect(Math.max(...run.late.slice(1))).toBeLessThan(1_000);
    expect(Math.max(...run.late.slice(11))).toBeLessThan(100);
  });
});
