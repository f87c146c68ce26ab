import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { assignSlots } from '../../renderer/screens/queue/slot-pool';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Queue (issue 34 #4): scrolling hands the rows' elements to the rows scrolling in (new props, not new DOM), in row
// order, so a fast flick does not build ~10 rows a frame.

describe('assignSlots', () => {
  it('keeps the slot of a row that stays, gives a row scrolling in a slot that left, and never two rows one slot', () => {
    const start = assignSlots(new Map(), 0, 9);
    expect([...start.values()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const moved = assignSlots(start, 3, 12);
    for (let index = 3; index <= 9; index++) expect(moved.get(index)).toBe(start.get(index));
    expect([10, 11, 12].map((i) => moved.get(i)).sort()).toEqual([0, 1, 2]);
    const jumped = assignSlots(moved, 500, 509);
    expect(new Set(jumped.values()).size).toBe(10);
    expect(Math.max(...jumped.values())).toBe(9);
    expect(assignSlots(moved, 3, 12)).toEqual(moved);
  });
});

describe('Queue rows while the list scrolls', () => {
  it('reuses the row elements for the rows scrolling in, in row order, showing their own photos', { timeout: 15_000 }, async () => {
    const items = Array.from({ length: 400 }, (_, n) => item(n, 'pending'));
    const fake = standardBridge({ 'batches:list': () => [batch({ total: 400, counts: counts({ pending: 400 }) })], 'batches:items': () => ({ total: 400, items }) });
    const { store } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    await screen.findByText('IMG_0000.jpg');
    const scroller = document.querySelector<HTMLElement>('.item-scroller')!;
    // jsdom has no layout: scrollTop is what scrolling by 48 px rows would set. Ten rows down first (the window gets
    // its overscan above), then ten more: the same number of rows, ten of them new.
    const scrollTo = (px: number) => {
      Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: px });
      fireEvent.scroll(scroller);
    };
    scrollTo(480);
    await waitFor(() => expect(screen.queryByText('IMG_0000.jpg')).toBeNull());
    const before = new Set(document.querySelectorAll('.item-row'));
    scrollTo(960);
    await waitFor(() => expect(screen.queryByText('IMG_0010.jpg')).toBeNull());
    const rows = [...document.querySelectorAll('.item-row')];
    const names = rows.map((r) => r.querySelector('.item-name-text')?.textContent);
    expect(names).toContain('IMG_0039.jpg');
    // Rows in reading order (the DOM order is the screen reader's and Tab's order).
    const positions = rows.map((r) => Number(r.querySelector('.item-pos')?.textContent));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(rows.filter((r) => !before.has(r))).toEqual([]);
    // Each row's Cancel is its own photo's.
    for (const row of rows) expect(row.querySelector('button[aria-label^="Cancel"]')?.getAttribute('aria-label')).toContain(row.querySelector('.item-name-text')!.textContent!);
  });
});
