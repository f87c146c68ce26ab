import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Review (issue 34 review): keyboard review after a click on the strip — the clicked slot holds focus, and the strip
// unmounts it once the current photo has moved a screen along.

const SAVED = 100_000;

function bigBatch() {
  return standardBridge({
    'batches:list': () => [batch({ state: 'completed', total: SAVED, counts: counts({ saved: SAVED }) })],
    'batches:itemWindow': ({ batchId, filter = 'all', offset = 0, limit = 200 }) => ({
      batchId, filter, offset, total: SAVED,
      items: Array.from({ length: Math.max(0, Math.min(limit, SAVED - offset)) }, (_, k) => item(offset + k, 'saved')),
    }),
  });
}

/** A 600 px wide strip that scrolls as a browser's does (setting scrollLeft fires 'scroll'). */
function layOut(strip: HTMLElement) {
  let left = 0;
  Object.defineProperty(strip, 'clientWidth', { configurable: true, value: 600 });
  Object.defineProperty(strip, 'scrollLeft', {
    configurable: true,
    get: () => left,
    set: (value: number) => {
      left = value;
      strip.dispatchEvent(new Event('scroll'));
    },
  });
}

describe('Review strip and the keyboard', () => {
  it('→ keeps stepping after a click on a slot, once the strip has scrolled that slot away', { timeout: 20_000 }, async () => {
    const fake = bigBatch();
    const { store, user } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().openReview('b1'));
    const strip = await screen.findByRole('group', { name: 'Saved results' });
    layOut(strip);
    await waitFor(() => expect(within(strip).getByRole('button', { current: true })).toHaveAccessibleName('IMG_0000.jpg'));
    await user.click(within(strip).getByRole('button', { current: true }));
    for (let n = 1; n <= 20; n++) {
      await user.keyboard('{ArrowRight}');
      await waitFor(() => expect(screen.getByText(`${n + 1} of 100,000`)).toBeInTheDocument(), { timeout: 2000 });
    }
    // Focus stayed in Review (on the viewer or a slot), not dropped to <body>.
    expect(screen.getByRole('region', { name: 'Review' }).contains(document.activeElement)).toBe(true);
  });
});
