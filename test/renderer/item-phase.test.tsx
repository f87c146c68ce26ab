import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// Issue 31 #15: a preparing row said a bare "Preparing" over an empty bar for seconds. It now says what the engine is
// doing with it (the item's reason while encoding); a waiting row shows no leftover from an earlier run.

describe('a preparing item in the queue', () => {
  it('says what it is doing; a waiting row shows no stale phase', async () => {
    const items = [
      item(0, 'encoding', { reason: 'Ready to send: waiting for a free slot' }),
      item(1, 'encoding', { reason: 'Reading and resizing the photo for upload' }),
      item(2, 'pending', { reason: 'Ready to send: waiting for a free slot' }),
    ];
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 3, counts: counts({ encoding: 2, pending: 1 }) })],
      'batches:items': () => ({ total: 3, items }),
    });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const ready = await screen.findByRole('row', { name: 'IMG_0000.jpg: Preparing' });
    expect(within(ready).getByText('Ready to send: waiting for a free slot')).toBeInTheDocument();
    expect(within(ready).queryByRole('progressbar')).toBeNull();
    expect(within(screen.getByRole('row', { name: 'IMG_0001.jpg: Preparing' })).getByText('Reading and resizing the photo for upload')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: 'IMG_0002.jpg: Waiting' })).queryByText(/Ready to send/)).toBeNull();
  });
});
