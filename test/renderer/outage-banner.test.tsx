import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, counts, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

describe('service outage banner', () => {
  it('shows "Can\'t reach the service" in the header and on the paused batch, and goes away when it answers', async () => {
    const paused = batch({ state: 'paused', pausedReason: 'service-unreachable', total: 20, counts: counts({ saved: 4, pending: 16 }) });
    const fake = standardBridge({ 'batches:list': () => [paused] });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const panel = await screen.findByRole('region', { name: /^Batch / });
    act(() => fake.emit('batches:progress', { batches: [paused], items: [], engine: { offline: true, unreachable: { since: Date.now(), nextTryAt: Date.now() + 8_000 } } }));
    const banner = document.querySelector<HTMLElement>('.app-header')!;
    // Progress is applied once per animation frame (renderer/store/progress-coalescer.ts).
    expect(await within(banner).findByText(/Can't reach the service — retrying \(next try in 8 s\)/)).toBeInTheDocument();
    expect(within(panel).getByText(/Can't reach the service — retrying \(next try in 8 s\)/)).toBeInTheDocument();
    // The engine's code is not shown raw; the action is a retry, not a plain "Resume".
    expect(within(panel).queryByText('service-unreachable')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Try now' })).toBeInTheDocument();

    const resumed = { ...paused, state: 'running' as const, pausedReason: null };
    act(() => fake.emit('batches:progress', { batches: [resumed], items: [], engine: { offline: false, unreachable: null } }));
    await waitFor(() => expect(screen.queryByText(/Can't reach the service/)).toBeNull());
  });
});
