import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EtaEstimator } from '../../../main/cli/eta';
import { wrap } from '../../../main/cli/format';
import { barLabel, barLine, labelWidth, statusText, totalsOf } from '../../../main/cli/progress-text';
import { lineReporter, ndjsonReporter, terminalReporter } from '../../../main/cli/reporters';
import type { Output } from '../../../main/cli/session';
import { summarize, summaryText } from '../../../main/cli/summary';
import { ITEM_STATES, type BatchSummary, type ItemState, type ItemView } from '../../../shared/engine/model';

// Progress and summary lines at 80 columns: none longer (a terminal would cut or wrap it), the ETA once the first
// photos are done, and without a terminal a progress line on a timer, not only when something changes.

const LONG_NAME = 'DSC_20261127_wedding_ceremony_first_look_portrait_0042.jpg';
const REASON = 'the image could not be processed: the input is a progressive JPEG with an unsupported colour transform (APP14)';

function batch(counts: Partial<Record<ItemState, number>>, over: Partial<BatchSummary> = {}): BatchSummary {
  const all = Object.fromEntries(ITEM_STATES.map((s) => [s, counts[s] ?? 0])) as Record<ItemState, number>;
  const total = Object.values(all).reduce((a, b) => a + b, 0);
  return {
    id: 'b1', workflowId: 'color-grade', workflowName: 'Color Grade', state: 'running', pausedReason: null, pauseCode: null,
    createdAt: '2026-11-27T10:00:00.000Z', total, counts: all, progress: 0, etaMs: null, creditCost: total, unitCost: 1,
    trialRest: null, creditsSpent: 0, budget: null, outputFolder: '/tmp/out', ...over,
  };
}

function item(state: ItemState, over: Partial<ItemView> = {}): ItemView {
  return {
    id: `i-${Math.random()}`, batchId: 'b1', position: 0, displayName: LONG_NAME, sources: { photo: `/photos/${LONG_NAME}` }, state,
    progress: 0, reason: null, executionId: null, outputs: [], creditsCharged: 0, verdict: null, updatedAt: '2026-11-27T10:00:00.000Z',
    attention: null, paidElsewhere: false, ...over,
  } as ItemView;
}

function capture(json = false): { out: Output; lines: string[]; records: Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const records: Array<Record<string, unknown>> = [];
  return {
    lines, records,
    out: { json, quiet: false, line: (t = '') => lines.push(t), result: (t) => lines.push(t), record: (v) => records.push(v as Record<string, unknown>), notice: () => undefined },
  };
}

const longest = (lines: string[]) => Math.max(...lines.map((l) => l.length));

describe('bar lines fit the terminal', () => {
  it('every bar line is at most 79 columns at width 80, whatever the name and status', () => {
    const statuses = ['submitting', 'downloading', '0/2,500 done · ETA 1h05m · 12,345 free test credits', '12/250 done · paused · 1,234 credits', REASON];
    for (const status of statuses) {
      for (const name of ['batch', 'a.jpg', LONG_NAME]) {
        const line = barLine(barLabel(name, labelWidth(80)), 0.42, status, 80, 40);
        expect(line.length, line).toBeLessThanOrEqual(79);
      }
    }
    // The end of a file name (its number and extension) survives the shortening.
    expect(barLabel(LONG_NAME, labelWidth(80)).trim()).toMatch(/…_0042\.jpg$/);
  });

  it('keeps the bar the same length while the status grows, and shows the whole status', () => {
    const label = barLabel('batch', labelWidth(80));
    const before = barLine(label, 0.5, '1/8 done · 1 credit', 80, 40);
    const after = barLine(label, 0.5, '2/8 done · ETA 12s · 2 credits', 80, 40);
    const barOf = (line: string) => /[█░]+/.exec(line)![0].length;
    expect(barOf(after)).toBe(barOf(before));
    expect(after).toContain('ETA 12s · 2 credits');
  });

  it('the status says the ETA only once there is one', () => {
    const totals = totalsOf([batch({ running: 3, saved: 1 }, { progress: 0.5, creditsSpent: 4 })]);
    expect(statusText(totals, null, 'test')).toBe('1/4 done · 4 free test credits');
    expect(statusText(totals, 12_000, 'test')).toBe('1/4 done · ETA 12s · 4 free test credits');
  });
});

describe('the ETA', () => {
  it('appears after the first completion of this run, and is 0 when nothing is left', () => {
    const eta = new EtaEstimator();
    // Two photos were skipped at once (already done): not this run's speed.
    eta.observe({ finished: 2, total: 10, progress: 0.2 }, 0);
    eta.observe({ finished: 2, total: 10, progress: 0.5 }, 4_000);
    expect(eta.etaMs()).toBeNull();
    eta.observe({ finished: 4, total: 10, progress: 0.6 }, 8_000);
    // 0.4 of the batch in 8 s, 0.4 left: 8 s.
    expect(eta.etaMs()).toBe(8_000);
    eta.observe({ finished: 10, total: 10, progress: 1 }, 12_000);
    expect(eta.etaMs()).toBe(0);
  });

  it('on a terminal, the batch bar shows it once photos are done (never cut off at 80 columns)', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 40, cursorTo: () => true, moveCursor: () => true, clearLine: () => true, clearScreenDown: () => true });
    let written = '';
    stream.on('data', (chunk: Buffer) => {
      written += chunk.toString();
    });
    vi.useFakeTimers({ now: 0 });
    try {
      const reporter = terminalReporter(8, 'test', stream as unknown as NodeJS.WriteStream);
      reporter.batches?.([batch({ running: 8 }, { progress: 0.3, creditsSpent: 8 })]);
      reporter.items?.([item('running', { progress: 40 })]);
      vi.advanceTimersByTime(4_000);
      reporter.batches?.([batch({ running: 6, saved: 2 }, { progress: 0.6, creditsSpent: 8 })]);
      vi.advanceTimersByTime(500);
      reporter.stop();
    } finally {
      vi.useRealTimers();
    }
    // eslint-disable-next-line no-control-regex
    const lines = written.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/[\r\n]/).filter((l) => l.trim());
    expect(lines.some((l) => /2\/8 done · ETA \d+s · 8 free test credits/.test(l)), lines.join('\n')).toBe(true);
    expect(longest(lines), lines.join('\n')).toBeLessThanOrEqual(80);
  });
});

describe('without a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a progress line at least every 5 s while nothing changes', () => {
    const { out, lines } = capture();
    const reporter = lineReporter(out, 'test');
    reporter.batches?.([batch({ running: 4 }, { progress: 0.1, creditsSpent: 4 })]);
    vi.advanceTimersByTime(1_000);
    reporter.batches?.([batch({ running: 3, saved: 1 }, { progress: 0.4, creditsSpent: 4 })]);
    vi.advanceTimersByTime(4_000);
    expect(lines.filter((l) => l.startsWith('progress')).length).toBe(1);
    vi.advanceTimersByTime(5_000);
    const progress = lines.filter((l) => l.startsWith('progress'));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toMatch(/^progress {2}1\/4 done, 3 in flight · ETA \d+s · 4 free test credits$/);
    reporter.stop();
    vi.advanceTimersByTime(20_000);
    expect(lines.filter((l) => l.startsWith('progress')).length).toBe(progress.length);
  });

  it('--json: a progress record at least every 5 s while nothing changes', () => {
    const { out, records } = capture(true);
    const reporter = ndjsonReporter(out);
    reporter.batches?.([batch({ running: 2 })]);
    expect(records.filter((r) => r.type === 'progress')).toHaveLength(1);
    vi.advanceTimersByTime(5_000);
    expect(records.filter((r) => r.type === 'progress')).toHaveLength(2);
    vi.advanceTimersByTime(5_000);
    expect(records.filter((r) => r.type === 'progress')).toHaveLength(3);
    reporter.stop();
  });

  it('says a pause once, and an outage once with its return, however often progress repeats them', () => {
    const { out, lines } = capture();
    const reporter = lineReporter(out, 'test');
    const full = batch({ downloading: 2, saved: 1 }, { state: 'paused', pauseCode: 'output-unwritable', pausedReason: 'Output disk full: 36 KB free on /Volumes/Photos. Free space, then Resume.' });
    for (let i = 0; i < 3; i++) reporter.batches?.([full]);
    const offline = batch({ running: 3 }, { state: 'paused', pauseCode: 'service-unreachable', pausedReason: 'service-unreachable' });
    for (let i = 0; i < 3; i++) {
      reporter.service?.({ since: 0, nextTryAt: Date.now() + 5_000 - i * 1_000 });
      reporter.batches?.([offline]);
    }
    reporter.service?.(null);
    reporter.stop();
    expect(lines.filter((l) => l.startsWith('paused'))).toEqual(['paused    Output disk full: 36 KB free on /Volumes/Photos. Free space, then']);
    expect(lines.filter((l) => l.trim() === 'Resume.')).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("Can't reach the service"))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('The service answers again'))).toHaveLength(1);
  });

  it('item lines wrap at 80 columns with the detail indented under the name', () => {
    const { out, lines } = capture();
    const reporter = lineReporter(out);
    reporter.outcome?.({
      seq: 1, batchId: 'b1', itemId: 'i', displayName: LONG_NAME, attempt: 1, state: 'failed', reason: REASON, outputs: [],
      executionId: null, creditsCharged: 0, recordedAt: '2026-11-27T10:00:00.000Z',
    });
    reporter.stop();
    expect(lines.length).toBeGreaterThan(1);
    expect(longest(lines)).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^failed {4}DSC_/);
    expect(lines.slice(1).every((l) => l.startsWith(' '.repeat(10)))).toBe(true);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(`failed    ${LONG_NAME}: ${REASON}`);
  });
});

describe('the summary at 80 columns', () => {
  it('wraps every line: failures with long reasons, a paused batch, paid elsewhere', () => {
    const items = [
      item('failed', { reason: REASON }),
      item('charged-no-result', { reason: 'charged, but the service no longer knows execution exe_e440b89514ff33e04412, so its result cannot be fetched' }),
      item('saved', { outputs: ['/tmp/out/a.jpg'], paidElsewhere: true }),
      item('saved', { outputs: ['/tmp/out/b.jpg'], paidElsewhere: true }),
    ];
    const batches = [batch({ failed: 1, saved: 2, 'charged-no-result': 1 }, {
      id: '76975a50-3e3a-457d-bf19-0c0632affb7c', state: 'paused', pauseCode: 'output-unwritable',
      pausedReason: 'Output disk full: 36 KB free on /Volumes/Photos. Free space, then Resume.',
    })];
    const text = summaryText({ batches, items }, summarize({ batches, items }), 'test', 80);
    const lines = text.split('\n');
    expect(longest(lines), text).toBeLessThanOrEqual(80);
    expect(text).toContain('Failed:');
    expect(text.replace(/\s+/g, ' ')).toContain(REASON);
    expect(text.replace(/\s+/g, ' ')).toContain('are saved without a new charge by `batchroom resume`');
  });

  it('wrap keeps padded columns and never splits a word', () => {
    const lines = wrap(`saved     ${LONG_NAME} → /a/rather/long/output/folder/${LONG_NAME}`, 80, ' '.repeat(10));
    expect(lines[0]).toBe(`saved     ${LONG_NAME} →`);
    expect(lines[1]).toBe(`          /a/rather/long/output/folder/${LONG_NAME}`);
  });
});
