import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_THUMBNAILS, withThumbnail } from '../../renderer/store/review-slice';
import { rowWindowAt } from '../../renderer/screens/queue/use-row-window';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Issue 34 #4: Review's thumbnail strip pages through a 100k batch's saved results (only the slots on screen exist,
// only their thumbnails are asked for), and stays keyboard-driven.

const SAVED = 100_000;

function bigBatch() {
  const saved = (n: number) => item(n, 'saved');
  return standardBridge({
    'batches:list': () => [batch({ state: 'completed', total: SAVED, counts: counts({ saved: SAVED }) })],
    'batches:itemWindow': ({ batchId, filter = 'all', offset = 0, limit = 200 }) => ({
      batchId, filter, offset, total: SAVED,
      items: Array.from({ length: Math.max(0, Math.min(limit, SAVED - offset)) }, (_, k) => saved(offset + k)),
    }),
  });
}

describe('Review strip', () => {
  it('shows a bounded window of a 100,000-result batch, asks only its thumbnails, and follows ←/→ and clicks', async () => {
    const fake = bigBatch();
    const { store, user } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().openReview('b1'));
    const strip = await screen.findByRole('group', { name: 'Saved results' });
    await waitFor(() => expect(within(strip).getByRole('button', { current: true })).toHaveAccessibleName('IMG_0000.jpg'));
    const slots = within(strip).getAllByRole('button');
    expect(slots.length).toBeGreaterThan(3);
    expect(slots.length).toBeLessThanOrEqual(40);
    const asked = fake.callsTo('files:thumbnailUrl') as { path: string }[];
    expect(asked.length).toBeLessThanOrEqual(40);
    // The result's thumbnail, through main's thumbnail path.
    expect(asked.map((c) => c.path)).toContain('/out/IMG_0_color-grade.jpg');

    await user.click(within(strip).getByRole('button', { current: true }));
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(within(strip).getByRole('button', { current: true })).toHaveAccessibleName('IMG_0001.jpg'));
    expect(screen.getByText('2 of 100,000')).toBeInTheDocument();

    await user.click(within(strip).getByRole('button', { name: 'IMG_0005.jpg' }));
    await waitFor(() => expect(screen.getByText('6 of 100,000')).toBeInTheDocument());

    // Scrolled far along: other slots, still a window.
    Object.defineProperty(strip, 'scrollLeft', { configurable: true, value: 76 * 60_000 });
    fireEvent.scroll(strip);
    await waitFor(() => expect(within(strip).getByRole('button', { name: 'IMG_60000.jpg' })).toBeInTheDocument());
    expect(within(strip).getAllByRole('button').length).toBeLessThanOrEqual(40);
    expect(fake.callsTo('files:thumbnailUrl').length).toBeLessThanOrEqual(80);
  });
});

describe('rowWindowAt', () => {
  it('is arithmetic over a fixed row height, clamped to the list', () => {
    expect(rowWindowAt(0, 480, 100_000, 48, 8)).toEqual({ first: 0, last: 18 });
    expect(rowWindowAt(48 * 50_000, 480, 100_000, 48, 8)).toEqual({ first: 49_992, last: 50_018 });
    expect(rowWindowAt(48 * 99_999, 480, 100_000, 48, 8)).toEqual({ first: 99_991, last: 99_999 });
    expect(rowWindowAt(0, 480, 0, 48, 8)).toEqual({ first: 0, last: -1 });
  });
});

describe('thumbnails kept', () => {
  it('keeps at most MAX_THUMBNAILS (half dropped at once when full), the oldest first', () => {
    let urls: Record<string, string | null> = {};
    for (let n = 0; n < MAX_THUMBNAILS + 50; n++) urls = withThumbnail(urls, `/in/${n}.jpg`, `thumb:${n}`);
    expect(Object.keys(urls).length).toBeLessThanOrEqual(MAX_THUMBNAILS);
    expect(Object.keys(urls).length).toBeGreaterThanOrEqual(MAX_THUMBNAILS / 2);
    expect(urls['/in/0.jpg']).toBeUndefined();
    expect(urls[`/in/${MAX_THUMBNAILS + 49}.jpg`]).toBe(`thumb:${MAX_THUMBNAILS + 49}`);
  });
});
