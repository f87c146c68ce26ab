import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseStartTrace, startTraceLine, traceStart } from '../../main/core/start-trace';

// BATCHROOM_START_TRACE (issue 34 #3): a restart's steps on one time line, read back by bench/_journal-restart.ts.

describe('start trace', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.BATCHROOM_START_TRACE;
  });

  it('writes nothing unless BATCHROOM_START_TRACE=1', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    traceStart('test-off');
    expect(write).not.toHaveBeenCalled();
  });

  it('writes each step once, with its epoch time, in a form the bench parses back', () => {
    process.env.BATCHROOM_START_TRACE = '1';
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { lines.push(String(chunk)); return true; });
    const before = Date.now();
    traceStart('test-on');
    traceStart('test-on');
    traceStart('test second', 1234.5);
    expect(lines).toHaveLength(2);
    const steps = parseStartTrace(`noise\n${lines.join('')}{"type":"batch"}\n`);
    expect(steps.map((s) => s.step)).toEqual(['test-on', 'test-second']);
    expect(steps[0]!.atMs).toBeGreaterThanOrEqual(before - 1);
    expect(steps[0]!.atMs).toBeLessThan(before + 60_000);
    expect(steps[1]!.atMs).toBe(1234.5);
    expect(startTraceLine('a b', 1)).toBe('batchroom-trace a-b 1.0\n');
  });
});
