import { describe, expect, it } from 'vitest';
import { describeResultFile } from '../../shared/engine/result-file';
import { batchBadge, photos } from '../../shared/engine/batch-badge';
import type { BatchSummary } from '../../shared/engine/model';

const counts = (c: Partial<BatchSummary['counts']>) => c as BatchSummary['counts'];

describe('batch badge', () => {
  it.each([
    ['all saved', 'completed', { saved: 3 }, 3, 'Finished', 'ok', 1, '3 of 3 photos saved'],
    ['all saved, one skipped', 'completed', { saved: 2, skipped: 1 }, 3, 'Finished', 'ok', 1, '2 of 2 photos saved'],
    ['every item failed', 'completed', { failed: 2 }, 2, 'Failed', 'danger', 0, '0 of 2 photos saved · 2 failed'],
    ['some failed', 'completed', { saved: 3, failed: 1 }, 4, 'Finished with problems', 'warning', 0.75, '3 of 4 photos saved · 1 failed'],
    ['charged without a result', 'completed', { saved: 1, 'charged-no-result': 1 }, 2, 'Finished with problems', 'warning', 0.5, '1 of 2 photos saved · 1 without a result'],
    ['cancelled after some saved', 'cancelled', { saved: 4, cancelled: 1 }, 5, 'Cancelled (partly saved)', 'neutral', 0.8, '4 of 5 photos saved · 1 cancelled'],
    ['cancelled before anything', 'cancelled', { cancelled: 1 }, 1, 'Cancelled', 'neutral', 0, '0 of 1 photo saved · 1 cancelled'],
    ['nothing to run', 'completed', { skipped: 2 }, 2, 'Finished', 'ok', 1, '0 of 0 photos saved'],
  ] as const)('%s', (_name, state, c, total, label, tone, fill, detail) => {
    expect(batchBadge({ state, counts: counts(c), total, progress: 1 })).toEqual({ label, tone, fill, detail });
  });

  it('shows progress while open', () => {
    expect(batchBadge({ state: 'running', counts: counts({ saved: 1, pending: 3 }), total: 4, progress: 0.4 })).toMatchObject({ label: 'Running', tone: 'active', fill: 0.4 });
    expect(batchBadge({ state: 'paused', counts: counts({ pending: 4 }), total: 4, progress: 0 })).toMatchObject({ label: 'Paused', tone: 'warning' });
  });

  it('counts photos in the right number', () => {
    expect([photos(0), photos(1), photos(2), photos(1200)]).toEqual(['0 photos', '1 photo', '2 photos', '1,200 photos']);
  });
});

describe('what the results will be, in one sentence', () => {
  it.each([
    [{ longEdge: 2048, largestOriginalEdge: 6000, formats: ['jpeg'], colour: 'srgb', metadata: 'keep' }, 'Results 2,048 px on the long edge (originals up to 6,000 px) · JPEG, sRGB, metadata kept'],
    [{ longEdge: 1024, largestOriginalEdge: 800, formats: ['png', 'tiff'], colour: 'source', metadata: 'strip-gps' }, 'Results 1,024 px on the long edge · PNG and TIFF, the original\'s colour space, metadata kept without location (PNG: IPTC kept as XMP)'],
    // A format without IPTC-IIM is named with what it cannot hold, so "metadata kept" promises nothing it loses.
    [{ longEdge: 1024, largestOriginalEdge: null, formats: ['webp'], colour: 'srgb', metadata: 'keep' }, 'Results 1,024 px on the long edge · WebP, sRGB, metadata kept (WebP: IPTC kept as XMP; IPTC-only release and expiry dates, contact and edit status are lost)'],
    [{ longEdge: 1024, largestOriginalEdge: null, formats: ['webp'], colour: 'srgb', metadata: 'strip' }, 'Results 1,024 px on the long edge · WebP, sRGB, metadata removed'],
    [{ longEdge: 1024, largestOriginalEdge: null, formats: [], colour: 'srgb', metadata: 'strip' }, 'Results 1,024 px on the long edge · JPEG, sRGB, metadata removed'],
  ] as const)('%j', (plan, text) => {
    expect(describeResultFile({ ...plan, formats: [...plan.formats] })).toBe(text);
  });
});
