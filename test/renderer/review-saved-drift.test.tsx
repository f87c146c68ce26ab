import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listKey } from '../../renderer/store/item-lists';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Review (issue 34 review): a photo saved ahead of the one on screen while Review is open (a running batch). The saved
// list is read again and every later photo moves one place down: the viewer, its strip and the next step must stay
// on the photo the user is looking at.

describe('Review while the batch saves photos', () => {
  it('keeps the photo on screen, the strip\'s current slot and → together when an earlier photo is saved', async () => {
    let items = [item(0, 'saved'), item(1, 'running'), item(2, 'saved'), item(3, 'saved')];
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 4, counts: counts({ saved: 3, running: 1 }) })],
      'batches:items': () => ({ total: items.length, items }),
    });
    const { store, user } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().openReview('b1', 'i2'));
    const strip = await screen.findByRole('group', { name: 'Saved results' });
    await waitFor(() => expect(within(strip).getByRole('button', { current: true })).toHaveAccessibleName('IMG_0002.jpg'));
    expect(document.querySelector('.review-name')?.textContent).toBe('IMG_0002.jpg');

    // i1 is saved while the user looks at i2.
    items = [item(0, 'saved'), item(1, 'saved'), item(2, 'saved'), item(3, 'saved')];
    act(() => store.getState().applyProgress({ batches: [batch({ total: 4, counts: counts({ saved: 4 }) })], items: [items[1]!] }));
    await waitFor(() => expect(store.getState().itemLists[listKey('b1', 'saved')]?.pages[0]?.map((i) => i.id)).toEqual(['i0', 'i1', 'i2', 'i3']), { timeout: 4000 });

    // Still IMG_0002 on screen (now 3 of 4), and the strip says so.
    expect(document.querySelector('.review-name')?.textContent).toBe('IMG_0002.jpg');
    expect(within(strip).getByRole('button', { current: true })).toHaveAccessibleName('IMG_0002.jpg');
    // → from what is on screen: IMG_0003.
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(document.querySelector('.review-name')?.textContent).toBe('IMG_0003.jpg'));
  });
});
