import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExecutionFollower } from '../../../main/core/engine/follow-execution';
import type { RunnerCore } from '../../../main/core/engine/runner-core';
import type { BatchRecord, ItemRecord } from '../../../main/core/journal/types';
import type { ExecutionPoll } from '../../../main/core/service/types';

// The follower against a service whose status answers take a while to come back: the service looks when the request
// arrives, so a "still running" answer says the execution was running when the request left, not when the answer came.

afterEach(() => { vi.useRealTimers(); });

/** Executions of exactly `durationMs`, one after another; how late each completion was seen. */
async function followOneAfterAnother(n: number, durationMs: number, answerMs: number): Promise<{ late: number[]; statusRequests: number }> {
  vi.useFakeTimers({ now: 1_000_000 });
  const startedAt = new Map<string, number>();
  const core = {
    gate: { acquire: async () => undefined, succeeded: () => undefined },
    stats: { statusRequests: 0, phases: { slotHeld: { count: 0, totalMs: 0 } } },
    o: {
      client: {
        getExecution: (id: string): Promise<ExecutionPoll> => {
          const done = Date.now() - startedAt.get(id)! >= durationMs;
          const answer = { id, status: done ? 'completed' : 'running', progress: done ? 100 : 50, resultUrls: [] } as unknown as ExecutionPoll;
          return new Promise((resolve) => setTimeout(() => resolve(answer), answerMs));
        },
      },
      journal: { updateExecution: () => undefined, getItem: () => undefined },
      now: () => new Date(),
    },
    isStopping: () => false,
    run: (work: () => Promise<unknown>) => { void work(); },
    update: () => undefined,
    kick: () => undefined,
  } as unknown as RunnerCore;
  const late: number[] = [];
  const batch = { id: 'b', creditCost: 1 } as BatchRecord;
  const start = (i: number) => {
    const id = `e${i}`;
    const flight = follower.track({ id: `i${i}`, executionId: id, progress: 0 } as ItemRecord, batch, Date.now());
    flight.acceptedAt = Date.now();
    startedAt.set(id, Date.now());
    follower.schedule(flight);
  };
  const follower = new ExecutionFollower(core, (itemId) => {
    const i = Number(itemId.slice(1));
    late.push(Date.now() - (startedAt.get(`e${i}`)! + durationMs));
    if (i + 1 < n) start(i + 1);
  });
  start(0);
  while (late.length < n) await vi.advanceTimersByTimeAsync(50);
  return { late, statusRequests: core.stats.statusRequests };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('following executions when status answers are slow', () => {
  it('sends the look before the end early by the time an answer takes, and times a "running" answer from when its request left', async () => {
    // 40 ms answers (a loaded machine) on a steady 2 s batch. The look before the end came back after it, so the one
    // after left one answer and one overdue step late; and a "running" answer timed from its arrival put the learned
    // end past that look, so each bracket moved the expectation later: seen 69 ms late (now 49, the answer's own 40
    // and the margin after the end).
    const { late, statusRequests } = await followOneAfterAnother(120, 2_000, 40);
    expect(mean(late.slice(60))).toBeLessThan(55);
    expect(statusRequests / 120).toBeLessThanOrEqual(2.5);
  });
});
