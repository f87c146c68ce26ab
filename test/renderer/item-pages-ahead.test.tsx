import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_LEAD, PAGE_SIZE, pagesForWindow } from '../../renderer/store/item-lists';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// The Queue asks for the page a scrolled list is heading into before its rows show (issue 34, item 4): rows that
// would show as placeholders for a frame and render again when the page lands are rendered once.
describe('pagesForWindow', () => {
  it('asks for the page under the window alone while it is far from a page boundary', () => {
    expect(pagesForWindow(PAGE_LEAD + 10, PAGE_SIZE - PAGE_LEAD - 10, 100_000)).toEqual([0]);
  });

  it('asks for the next page once the window is within the lead of its end, after the page on screen', () => {
    expect(pagesForWindow(PAGE_SIZE - PAGE_LEAD - 30, PAGE_SIZE - PAGE_LEAD + 5, 100_000)).toEqual([0, 1]);
  });

  it('asks for the previous page when scrolled near the start of a page', () => {
    expect(pagesForWindow(PAGE_SIZE * 3 + 10, PAGE_SIZE * 3 + 40, 100_000)).toEqual([3, 2]);
  });

  it('asks for both pages under a window that straddles a boundary, on screen first', () => {
    expect(pagesForWindow(PAGE_SIZE * 5 - 10, PAGE_SIZE * 5 + 20, 100_000)).toEqual([4, 5]);
  });

  it('never asks past the end of the list or before its start', () => {
    const count = PAGE_SIZE * 2 + 50; // pages 0, 1, 2 (the last one partial)
    expect(pagesForWindow(count - 30, count - 1, count)).toEqual([2, 1]);
    expect(pagesForWindow(0, 30, count)).toEqual([0]);
    expect(pagesForWindow(0, 30, 20)).toEqual([0]);
  });

  it('asks nothing of an empty list or an empty window', () => {
    expect(pagesForWindow(0, -1, 100)).toEqual([]);
    expect(pagesForWindow(0, 10, 0)).toEqual([]);
  });
});

describe('Queue scrolled towards the next page', () => {
  it('has asked for that page before any of its rows is on screen, and not for pages beyond it', { timeout: 15_000 }, async () => {
    const items = Array.from({ length: PAGE_SIZE * 3 }, (_, n) => item(n, 'pending'));
    const fake = standardBridge({ 'batches:list': () => [batch({ total: items.length, counts: counts({ pending: items.length }) })], 'batches:items': () => ({ total: items.length, items }) });
    const { store } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    await screen.findByText('IMG_0000.jpg');
    const offsets = () => fake.callsTo('batches:itemWindow').map((args) => (args as { offset: number }).offset);
    expect(offsets()).toEqual([0]);
    const scroller = document.querySelector<HTMLElement>('.item-scroller')!;
    // jsdom has no layout (a 600 px viewport, 48 px rows): at row 130 the window's last row is 151 + 8 overscan, within
    // PAGE_LEAD of row 200.
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 130 * 48 });
    fireEvent.scroll(scroller);
    await waitFor(() => expect(offsets()).toContain(PAGE_SIZE));
    const shown = [...document.querySelectorAll('.item-pos')].map((cell) => Number(cell.textContent) - 1);
    expect(Math.max(...shown)).toBeLessThan(PAGE_SIZE);
    expect(offsets()).not.toContain(PAGE_SIZE * 2);
  });
});
