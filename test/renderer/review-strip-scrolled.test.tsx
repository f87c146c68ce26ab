import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listKey, PAGE_SIZE } from '../../renderer/store/item-lists';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Review (issue 34 review): the strip and the photo on screen share the saved list's at most MAX_PAGES pages.

const SAVED = 100_000;
const SLOT = 76;

function bigBatch() {
  return standardBridge({
    'batches:list': () => [batch({ state: 'completed', total: SAVED, counts: counts({ saved: SAVED }) })],
    'batches:itemWindow': ({ batchId, filter = 'all', offset = 0, limit = 200 }) => ({
      batchId, filter, offset, total: SAVED,
      items: Array.from({ length: Math.max(0, Math.min(limit, SAVED - offset)) }, (_, k) => item(offset + k, 'saved')),
    }),
  });
}

describe('Review strip scrolled along', () => {
  it('keeps the photo on screen (and the strip) when the strip has been scrolled through more than MAX_PAGES pages', { timeout: 20_000 }, async () => {
    const fake = bigBatch();
    const { store } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().openReview('b1'));
    const strip = await screen.findByRole('group', { name: 'Saved results' });
    await waitFor(() => expect(screen.getByText('1 of 100,000')).toBeInTheDocument());
    // The user drags the strip's scrollbar along: each position asks for the pages under it.
    for (let page = 1; page <= 9 && strip.isConnected; page++) {
      Object.defineProperty(strip, 'scrollLeft', { configurable: true, value: SLOT * page * PAGE_SIZE });
      fireEvent.scroll(strip);
      await waitFor(() => expect(store.getState().itemLists[listKey('b1', 'saved')]?.pages[page]).toBeDefined());
    }
    // Still reviewing photo 1 of 100,000 (IMG_0000): not "nothing to review", and ←/→ still there.
    expect(screen.getByText('1 of 100,000')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Saved results' })).toBeInTheDocument();
    // The photo's own page (page 0) is the one farthest from where the strip looks.
    expect(store.getState().itemLists[listKey('b1', 'saved')]?.pages[0]).toBeDefined();
  });
});
