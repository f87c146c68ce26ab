import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// Chains in the app (issue 32 #3): every step of a chain is a batch of its own; the queue shows each as the step it is.

const names = ['Color Grade', 'Film Effects', 'Caption & Watermark'];

describe('chain steps in the queue', () => {
  it('shows a chain step\'s batch as "Step n of N" with the chain\'s steps, this one marked; a plain batch shows none', async () => {
    const step2 = batch({ id: 'c2', workflowName: 'Film Effects', queueOrder: 1, chain: { id: 'chain-1', step: 2, steps: 3, names, keep: false } });
    const plain = batch({ id: 'p1', workflowName: 'Color Grade', queueOrder: 2 });
    const fake = standardBridge({ 'batches:list': () => [step2, plain], 'batches:items': () => ({ total: 0, items: [] }) });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const list = await screen.findByRole('region', { name: 'Batches' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('Step 2/3')).toBeInTheDocument();
    expect(second!.querySelector('.chain-step-short')).toBeNull();
    act(() => store.getState().selectBatch('c2'));
    const panel = await screen.findByRole('region', { name: 'Batch Film Effects' });
    expect(within(panel).getByText('Step 2 of 3')).toBeInTheDocument();
    const steps = within(panel).getByRole('list', { name: 'Steps of this chain' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(names);
    expect(within(steps).getByText('Film Effects')).toHaveAttribute('aria-current', 'step');
    act(() => store.getState().selectBatch('p1'));
    const plainPanel = await screen.findByRole('region', { name: 'Batch Color Grade' });
    expect(within(plainPanel).queryByText(/^Step /)).toBeNull();
  });
});
