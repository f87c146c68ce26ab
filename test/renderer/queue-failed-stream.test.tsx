import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../shared/engine/model';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Queue (issue 34 review): "Failed" shown while progress streams; a running item fails.
const N = 1000;
describe('Queue filter while progress streams', () => {
  it('a running item that fails shows up under Failed, counted, and no row leaves the filter', async () => {
    let items: ItemView[] = Array.from({ length: N }, (_, n) => item(n, n % 50 === 7 ? 'failed' : n < 20 ? 'running' : 'pending'));
    const summary = () => batch({ total: N, counts: counts({ failed: items.filter((i) => i.state === 'failed').length, running: items.filter((i) => i.state === 'running').length, pending: items.filter((i) => i.state === 'pending').length }) });
    const fake = standardBridge({ 'batches:list': () => [summary()], 'batches:items': () => ({ total: items.length, items }) });
    const { store } = await showView('queue', fake);
    await act(() => store.getState().loadBatches());
    act(() => store.getState().setStatusFilter('failed'));
    const table = await screen.findByRole('table');
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe('20'));
    await waitFor(() => expect(document.querySelectorAll('.item-row:not(.item-row-loading)').length).toBe(20));
    items = items.map((i) => (i.position === 10 ? { ...i, state: 'failed' as const } : i));
    act(() => store.getState().applyProgress({ batches: [summary()], items: [items[10]!] }));
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe('21'));
    await waitFor(() => expect([...document.querySelectorAll('.item-row .item-name-text')].map((e) => e.textContent)).toContain('IMG_0010.jpg'), { timeout: 3000 });
    const names = [...document.querySelectorAll('.item-row .item-name-text')].map((e) => e.textContent);
    expect(names.slice(0, 3)).toEqual(['IMG_0007.jpg', 'IMG_0010.jpg', 'IMG_0057.jpg']);
    expect(document.querySelectorAll('.item-row:not(.item-row-loading)').length).toBe(21);
  });
});
