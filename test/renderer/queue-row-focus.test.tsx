import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../shared/engine/model';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Queue (issue 34 review): rows are slots keyed by their index; when a filtered list is read again and its items move up,
// a focused button must not silently become another photo's button (Enter would cancel a photo the user never chose).
describe('Queue row focus while the Active list moves', () => {
  it('the focused Cancel button never belongs to another photo after the list is read again', { timeout: 15_000 }, async () => {
    let items: ItemView[] = Array.from({ length: 6 }, (_, n) => item(n, 'running'));
    const summary = () => batch({ total: 6, counts: counts({ running: items.filter((i) => i.state === 'running').length, saved: items.filter((i) => i.state === 'saved').length }) });
    const fake = standardBridge({ 'batches:list': () => [summary()], 'batches:items': () => ({ total: items.length, items }) });
    const { store } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().setStatusFilter('active'));
    const cancel = await screen.findByRole('button', { name: /IMG_0002/ });
    expect(cancel.getAttribute('aria-label')).toMatch(/Cancel/);
    act(() => cancel.focus());
    // IMG_0000 is saved: it leaves Active, every row below moves up one.
    items = items.map((i) => (i.position === 0 ? { ...i, state: 'saved' as const, outputs: ['/out/IMG_0_color-grade.jpg'] } : i));
    act(() => store.getState().applyProgress({ batches: [summary()], items: [items[0]!] }));
    await waitFor(() => expect(document.querySelector('.item-row .item-name-text')?.textContent).toBe('IMG_0001.jpg'), { timeout: 4000 });
    const focused = document.activeElement as HTMLElement;
    // Either still IMG_0002's button, or focus left the table: never another photo's Cancel.
    if (focused.tagName === 'BUTTON') expect(focused.getAttribute('aria-label')).toMatch(/IMG_0002/);
  });
});
