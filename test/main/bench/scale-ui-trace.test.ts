import { describe, expect, it } from 'vitest';
import { summarizeTrace } from '../../../bench/_scale-ui-trace';

// bench/_scale-ui-trace.ts: the renderer main thread's CPU per kind is each event's own thread time, its nested events'
// taken out (a task running a script that forces a layout: script, layout and other apart, summing to the task).

describe('summarizeTrace', () => {
  it('splits the main thread CPU time by kind, self time only, other threads left out', () => {
    const main = { pid: 1, tid: 7 };
    const events = [
      { name: 'thread_name', ph: 'M', ts: 0, pid: 1, tid: 7, args: { name: 'CrRendererMain' } },
      { name: 'RunTask', ph: 'X', ts: 1000, dur: 10_000, tdur: 8_000, ...main },
      { name: 'FunctionCall', ph: 'X', ts: 1100, dur: 6_000, tdur: 5_000, ...main },
      { name: 'Layout', ph: 'X', ts: 2000, dur: 2_000, tdur: 2_000, ...main },
      { name: 'Paint', ph: 'X', ts: 8000, dur: 1_000, tdur: 1_000, ...main },
      { name: 'UpdateLayoutTree', ph: 'X', ts: 20_000, dur: 500, tdur: 500, ...main },
      { name: 'FunctionCall', ph: 'X', ts: 1000, dur: 50_000, tdur: 50_000, pid: 1, tid: 9 },
    ];
    const summary = summarizeTrace(events);
    expect(summary.cpuMs).toBe(9);
    expect(summary.cpuByKind).toEqual({ script: 3, style: 0.5, layout: 2, paint: 1, other: 2 });
  });
});
