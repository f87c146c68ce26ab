import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// An item the journal parked (its state move was refused: main/core/journal/transitions.ts) says so in its row:
// a "Needs attention" badge beside its unchanged state, and the sentence in place of its progress.

describe('a parked item in the queue', () => {
  it('shows "Needs attention" and why, beside its unchanged state', async () => {
    const attention = 'Needs attention: Batchroom refused to move it from "running" by "save", which should not happen; it was left as it was.';
    const items = [item(0, 'running', { progress: 40, attention }), item(1, 'running', { progress: 40 })];
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 2, counts: counts({ running: 2 }) })],
      'batches:items': () => ({ total: 2, items }),
    });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const parked = await screen.findByRole('row', { name: 'IMG_0000.jpg: Editing, needs attention' });
    expect(within(parked).getByText('Needs attention')).toHaveAttribute('title', attention);
    expect(within(parked).getByText(attention)).toBeInTheDocument();
    expect(within(parked).queryByRole('progressbar')).toBeNull();
    const normal = screen.getByRole('row', { name: 'IMG_0001.jpg: Editing' });
    expect(within(normal).queryByText('Needs attention')).toBeNull();
    expect(within(normal).getByRole('progressbar')).toBeInTheDocument();
  });
});
