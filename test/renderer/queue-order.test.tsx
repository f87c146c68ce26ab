import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, counts, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// Queue order across batches (issue 32 #5): the queue lists open batches in submit order, and a batch moves to the
// front or back of it.

describe('queue order', () => {
  it('moves a batch to the front and to the back, and lists open batches in submit order', async () => {
    const older = batch({ id: 'b1', workflowName: 'Older', createdAt: '2026-11-22T10:00:00.000Z', priority: 0, queueOrder: 1 });
    const newer = batch({ id: 'b2', workflowName: 'Newer', createdAt: '2026-11-22T11:00:00.000Z', priority: 0, queueOrder: 2 });
    const done = batch({ id: 'b3', workflowName: 'Done', state: 'completed', createdAt: '2026-11-22T12:00:00.000Z', counts: counts({ saved: 3 }), queueOrder: 3 });
    const fake = standardBridge({
      'batches:list': () => [older, newer, done],
      'batches:items': () => ({ total: 0, items: [] }),
      'batches:move': ({ batchId, to }) => ({ ...(batchId === 'b2' ? newer : older), queueOrder: to === 'front' ? 0 : 4 }),
    });
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const list = await screen.findByRole('region', { name: 'Batches' });
    const names = () => within(list).getAllByRole('listitem').map((li) => li.querySelector('.workflow-name')?.textContent);
    // Open batches in the order they are sent (not newest first), then the finished one.
    expect(names()).toEqual(['Older', 'Newer', 'Done']);
    act(() => store.getState().selectBatch('b2'));
    const panel = await screen.findByRole('region', { name: 'Batch Newer' });
    expect(within(panel).getByText('2 of 2')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Move to back' })).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: 'Move to front' }));
    expect(fake.callsTo('batches:move')).toEqual([{ batchId: 'b2', to: 'front' }]);
    expect(names()).toEqual(['Newer', 'Older', 'Done']);
    expect(within(panel).getByText('1 of 2')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Move to front' })).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: 'Move to back' }));
    expect(fake.callsTo('batches:move')).toEqual([{ batchId: 'b2', to: 'front' }, { batchId: 'b2', to: 'back' }]);
    expect(names()).toEqual(['Older', 'Newer', 'Done']);
  });

  it('offers no queue moves on a batch that is the only one open', async () => {
    const fake = standardBridge({ 'batches:list': () => [batch({ queueOrder: 1 })], 'batches:items': () => ({ total: 0, items: [] }) });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await screen.findByRole('region', { name: 'Batch Color Grade' });
    expect(screen.queryByRole('button', { name: 'Move to front' })).toBeNull();
    expect(screen.queryByText('In the queue')).toBeNull();
  });
});
