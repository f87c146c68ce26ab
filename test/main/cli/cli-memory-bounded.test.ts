import { describe, expect, it } from 'vitest';
import { createOutcomeBuffer } from '../../../main/cli/outcome-buffer';
import { ndjsonReporter } from '../../../main/cli/reporters';
import type { Output } from '../../../main/cli/session';
import { summarize, SummaryTally } from '../../../main/cli/summary';
import type { BatchSummary, ItemOutcomeEvent, ItemState, ItemView } from '../../../shared/engine/model';

// Issue 34, item 2: what the CLI keeps while it follows a batch grows with what is in flight, not with the batch
// (a 100k batch kept every item's last state, every outcome, and every ItemView at the end).

const N = 5_000;
const WINDOW = 20;

const item = (i: number, state: ItemState, over: Partial<ItemView> = {}): ItemView => ({
  id: `i${i}`, batchId: 'b', position: i, displayName: `IMG_${i}.jpg`, sources: { image: `/in/IMG_${i}.jpg` }, state, progress: 0, reason: null,
  executionId: null, outputs: state === 'saved' ? [`/out/IMG_${i}_x.jpg`] : [], creditsCharged: 0, verdict: null, updatedAt: '2026-11-27T10:00:00.000Z',
  attention: null, paidElsewhere: false, ...over,
} as ItemView);

const outcome = (i: number, state: ItemState): ItemOutcomeEvent => ({
  seq: i + 1, batchId: 'b', itemId: `i${i}`, displayName: `IMG_${i}.jpg`, attempt: 1, state, reason: null, outputs: state === 'saved' ? [`/out/IMG_${i}_x.jpg`] : [],
  executionId: `e${i}`, creditsCharged: 1, recordedAt: '2026-11-27T10:00:00.000Z',
});

function records(): { out: Output; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { out: { json: true, quiet: false, line: () => undefined, result: () => undefined, record: (v) => lines.push(v as Record<string, unknown>), notice: () => undefined }, lines };
}

describe('the CLI keeps a window, not the batch', () => {
  it(`--json reporter: ${N} items through ${WINDOW} slots keep at most the items in flight, and every state line is still written once`, () => {
    const { out, lines } = records();
    const reporter = ndjsonReporter(out);
    let maxHeld = 0;
    for (let start = 0; start < N; start += WINDOW) {
      const slot = Array.from({ length: WINDOW }, (_, k) => start + k);
      for (const state of ['encoding', 'submitting', 'submitted', 'running', 'running', 'downloading'] as const) {
        reporter.items?.(slot.map((i) => item(i, state)));
        maxHeld = Math.max(maxHeld, reporter.held!());
      }
      for (const i of slot) reporter.outcome?.(outcome(i, 'saved'));
      // A progress event after the outcome that still shows the final state writes nothing more.
      reporter.items?.(slot.map((i) => item(i, 'saved')));
    }
    reporter.stop();
    expect(maxHeld).toBe(WINDOW);
    expect(reporter.held!()).toBe(0);
    // Five distinct states (running repeated is one line) + the outcome per item.
    expect(lines.filter((l) => l.type === 'item')).toHaveLength(N * 6);
    expect(lines.filter((l) => l.type === 'item' && l.id === 'i7').map((l) => l.state)).toEqual(['encoding', 'submitting', 'submitted', 'running', 'downloading', 'saved']);
  });

  it('a retried item after its outcome is written again from its first new state', () => {
    const { out, lines } = records();
    const reporter = ndjsonReporter(out);
    reporter.items?.([item(1, 'submitted')]);
    reporter.outcome?.(outcome(1, 'failed'));
    reporter.items?.([item(1, 'pending')]);
    reporter.items?.([item(1, 'submitted')]);
    reporter.stop();
    expect(lines.map((l) => l.state)).toEqual(['submitted', 'failed', 'pending', 'submitted']);
  });

  it('outcomes are kept only while nobody listens, handed to the next listener once', () => {
    const buffer = createOutcomeBuffer();
    for (let i = 0; i < 3; i++) buffer.push(outcome(i, 'skipped')); // settled while the batch was created
    const seen: string[] = [];
    const stop = buffer.subscribe((o) => seen.push(o.itemId));
    expect(seen).toEqual(['i0', 'i1', 'i2']);
    for (let i = 3; i < N; i++) buffer.push(outcome(i, 'saved'));
    expect(seen).toHaveLength(N);
    expect(buffer.held()).toBe(0);
    stop();
    buffer.push(outcome(N, 'saved'));
    expect(buffer.held()).toBe(1);
    const later: string[] = [];
    buffer.subscribe((o) => later.push(o.itemId));
    expect(later).toEqual([`i${N}`]);
  });

  it('the summary tally, fed pages, equals the one-list summary and keeps only what it lists', () => {
    const states: ItemState[] = ['saved', 'saved', 'saved', 'failed', 'skipped', 'unknown', 'cancelled', 'charged-no-result'];
    const all = Array.from({ length: N }, (_, i) => item(i, states[i % states.length]!, { reason: i % 8 === 3 ? `failed ${i}` : null, paidElsewhere: i % 16 === 0 }));
    const batches = [{ id: 'b', creditsSpent: 1234.5, state: 'completed', outputFolder: '/out' } as BatchSummary];
    const tally = new SummaryTally();
    const text = new SummaryTally(false);
    let maxHeld = 0;
    for (let offset = 0; offset < N; offset += 2000) {
      tally.add(all.slice(offset, offset + 2000));
      text.add(all.slice(offset, offset + 2000));
      maxHeld = Math.max(maxHeld, text.held());
    }
    const whole = summarize({ batches, items: all });
    expect(tally.summary(batches)).toEqual(whole);
    expect(whole).toMatchObject({ saved: 1875, failed: 1250, skipped: 625, unknown: 625, chargedNoResult: 625, paidElsewhere: 313 });
    // Without --json no output path is kept; each list keeps its first 50.
    expect(text.summary(batches).outputs).toEqual([]);
    expect(maxHeld).toBe(4 * 50);
    const said = text.text(batches, whole);
    expect(said).toContain('IMG_3.jpg: failed 3');
    expect(said).toContain('… and 1200 more');
    expect(said).toContain('Results in /out');
  });
});
