import { describe, expect, it } from 'vitest';
import { lineReporter, ndjsonReporter } from '../../../main/cli/reporters';
import type { Output } from '../../../main/cli/session';
import type { ItemOutcomeEvent } from '../../../shared/engine/model';

function capture(json: boolean): { out: Output; lines: string[]; records: unknown[] } {
  const lines: string[] = [];
  const records: unknown[] = [];
  const out: Output = {
    json, quiet: false, line: (t = '') => lines.push(t), result: (t) => lines.push(t), record: (v) => records.push(v), notice: () => undefined,
  };
  return { out, lines, records };
}

const outcome = (over: Partial<ItemOutcomeEvent>): ItemOutcomeEvent => ({
  seq: 1, batchId: 'b', itemId: 'i', displayName: 'IMG_1.jpg', attempt: 1, state: 'saved', reason: null, outputs: ['/out/IMG_1_x.jpg'],
  executionId: 'e', creditsCharged: 1, recordedAt: '2026-11-24T10:00:00.000Z', ...over,
});

describe('finished-item lines show a saved item\'s warning', () => {
  it('plain lines: the warning follows the saved file', () => {
    const { out, lines } = capture(false);
    const reporter = lineReporter(out);
    reporter.outcome?.(outcome({}));
    reporter.outcome?.(outcome({ reason: 'saved, but the XMP sidecar of IMG_1_x.jpg was not written (EACCES)' }));
    reporter.stop();
    expect(lines).toEqual([
      'saved     IMG_1.jpg → /out/IMG_1_x.jpg',
      // Wrapped at 80 columns, the rest indented under the name.
      'saved     IMG_1.jpg → /out/IMG_1_x.jpg — saved, but the XMP sidecar of',
      '          IMG_1_x.jpg was not written (EACCES)',
    ]);
  });

  it('--json: the reason is in the item line', () => {
    const { out, records } = capture(true);
    ndjsonReporter(out).outcome?.(outcome({ reason: 'saved, but metadata not copied from the original: x' }));
    expect(records).toEqual([expect.objectContaining({ type: 'item', state: 'saved', reason: 'saved, but metadata not copied from the original: x' })]);
  });
});
