import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeFailure } from './helpers/fake-bridge';
import { balance, batch, counts, item, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

describe('header', () => {
  it('makes sandbox mode unmistakable and breaks down web credits on hover', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(standardBridge());
    expect(await screen.findByRole('status', { name: /Sandbox mode/ })).toHaveTextContent(/Sandbox/);
    const button = await screen.findByRole('button', { name: 'Balance: 1,200 credits' });
    await user.hover(button);
    const tip = screen.getByRole('tooltip');
    expect(tip).toHaveClass('is-open');
    expect(tip).toHaveTextContent('Monthly plan');
    expect(tip).toHaveTextContent('250');
  });

  it('shows live mode and warns when the balance runs low', async () => {
    const fake = standardBridge({
      'service:status': () => ({ mode: 'live', serviceUrl: 'https://api.example/api/v1', keyMasked: 'sk_live_…abcd', keySource: 'keychain', message: 'Live.' }),
      'balance:get': () => ({ ...balance, apiCredits: 12 }),
    });
    renderApp(fake);
    expect(await screen.findByRole('status', { name: /Live service/ })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Balance: 12 credits, running low' })).toBeInTheDocument();
    act(() => fake.emit('balance:changed', { ...balance, apiCredits: 900 }));
    expect(await screen.findByRole('button', { name: 'Balance: 900 credits' })).toBeInTheDocument();
  });

  it('derives the badge from the key too: a test key against a separately run service spends test credits, not live ones', async () => {
    const fake = standardBridge({
      'service:status': () => ({ mode: 'live', serviceUrl: 'http://127.0.0.1:4010/api/v1', keyMasked: 'sk_test_…abcd', keySource: 'env', message: 'Using the key from the environment.' }),
    });
    renderApp(fake);
    const badge = await screen.findByRole('status', { name: 'Test key: no real credits are spent' });
    expect(badge).toHaveTextContent('Test key · test credits');
    expect(screen.queryByRole('status', { name: /Live service/ })).toBeNull();
  });

  it('says the balance is unavailable in plain words and retries on click', async () => {
    const fake = standardBridge({ 'balance:get': () => { throw new FakeFailure('network', 'ECONNREFUSED'); } });
    const user = userEvent.setup({ delay: null });
    renderApp(fake);
    const retry = await screen.findByRole('button', { name: /Balance unavailable/ });
    fake.handle('balance:get', () => balance);
    await user.click(retry);
    expect(await screen.findByRole('button', { name: 'Balance: 1,200 credits' })).toBeInTheDocument();
  });
});

function queueBridge(total: number, extra = {}) {
  const items = Array.from({ length: total }, (_, n) => item(n, n % 10 === 0 ? 'failed' : n === 3 ? 'unknown' : 'pending', n % 10 === 0 ? { reason: 'The service refused it' } : {}));
  return standardBridge({
    'batches:list': () => [batch({ total, counts: counts({ pending: total - 2, failed: 1, unknown: 1 }), progress: 0.25, etaMs: 125_000, creditsSpent: 7 })],
    'batches:items': ({ offset = 0, limit = 500 }) => ({ total, items: items.slice(offset, offset + limit) }),
    ...extra,
  });
}

describe('queue', () => {
  it('virtualizes 10,000 items: only a screenful of rows exists in the DOM', async () => {
    const user = userEvent.setup({ delay: null });
    const fake = queueBridge(10_000, { 'files:thumbnailUrl': ({ path }: { path: string }) => ({ url: `batchroom-media://thumb/${encodeURIComponent(path)}` }) });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const table = await screen.findByRole('table', { name: 'Items' });
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(5));
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    // Thumbnails: asked for the rows on screen only, never for the 10,000.
    await waitFor(() => expect(table.querySelectorAll('img.item-thumb').length).toBeGreaterThan(5));
    expect(fake.callsTo('files:thumbnailUrl').length).toBeLessThan(60);
    expect(table).toHaveAttribute('aria-rowcount', '10000');
    expect(screen.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('2m 05s')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Failed' }));
    // The failed items are main's answer (batches:itemWindow), not a filter over a list the renderer holds.
    await waitFor(() => expect(screen.getByRole('table', { name: 'Items' })).toHaveAttribute('aria-rowcount', '1000'));
    expect(within(screen.getByRole('table', { name: 'Items' })).getAllByRole('row')[0]).toHaveTextContent('The service refused it');
    expect(fake.callsTo('batches:itemWindow').at(-1)).toMatchObject({ filter: 'failed', offset: 0 });
  });

  it('shows progress events as they arrive', async () => {
    const fake = queueBridge(20);
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await screen.findByRole('row', { name: 'IMG_0001.jpg: Waiting' });
    act(() => fake.emit('batches:progress', { batches: [batch({ total: 20, counts: counts({ running: 1 }), progress: 0.5 })], items: [item(1, 'running', { progress: 60 })] }));
    expect(await screen.findByRole('progressbar', { name: 'IMG_0001.jpg progress' })).toHaveAttribute('aria-valuenow', '60');
    expect(screen.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute('aria-valuenow', '50');
  });

  it('offers pause, cancel, retry failed and move to front', async () => {
    const fake = queueBridge(20, {
      'batches:pause': () => batch({ state: 'paused', pausedReason: 'Paused by you.', total: 20, counts: counts({ pending: 19, failed: 1 }) }),
      'batches:retryFailed': () => batch(),
      'items:reorder': () => ({ moved: 1 }),
    });
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.getByText('Paused by you.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move IMG_0005.jpg to the front' }));
    expect(fake.callsTo('items:reorder')).toEqual([{ batchId: 'b1', itemIds: ['i5'], beforeItemId: null }]);
    // Retrying spends: it asks first, with the cost (unit cost 1 in the fixture).
    await user.click(screen.getByRole('button', { name: 'Retry failed (1)' }));
    const retry = screen.getByRole('dialog', { name: 'Retry 1 photo?' });
    expect(retry).toHaveTextContent(/costs up to 1 credit/);
    expect(fake.callsTo('batches:retryFailed')).toEqual([]);
    await user.click(within(retry).getByRole('button', { name: 'Retry (up to 1 credit)' }));
    expect(fake.callsTo('batches:retryFailed')).toEqual([{ batchId: 'b1' }]);
    // Cancelling asks too, and "Keep running" changes nothing.
    await user.click(screen.getByRole('button', { name: 'Cancel batch' }));
    const cancel = screen.getByRole('dialog', { name: 'Cancel this batch?' });
    expect(cancel).toHaveTextContent(/not sent yet will not be processed/);
    await user.click(within(cancel).getByRole('button', { name: 'Keep running' }));
    expect(fake.callsTo('batches:cancel')).toEqual([]);
  });

  it('after a try-first batch: "Continue with the other 9" asks with the cost, then starts the rest and selects it', async () => {
    const tried = batch({ total: 3, counts: counts({ saved: 3 }), state: 'completed', progress: 1, trialRest: 9, unitCost: 2 });
    const rest = batch({ id: 'b2', total: 12, trialRest: null });
    const fake = standardBridge({
      'batches:list': () => [tried],
      'batches:items': () => ({ total: 0, items: [] }),
      'batches:continueTrial': () => rest,
    });
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await user.click(await screen.findByRole('button', { name: 'Continue with the other 9' }));
    const dialog = screen.getByRole('dialog', { name: 'Continue with the other 9 photos?' });
    expect(dialog).toHaveTextContent(/not sent or paid for again/);
    expect(fake.callsTo('batches:continueTrial')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Continue (up to 18 credits)' }));
    await waitFor(() => expect(store.getState().selectedBatchId).toBe('b2'));
    expect(fake.callsTo('batches:continueTrial')).toEqual([{ batchId: 'b1' }]);
  });

  it('resubmits an unknown item only after the may-be-charged-twice confirmation', async () => {
    const fake = queueBridge(20, { 'items:resubmit': () => item(3, 'pending') });
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await user.click(await screen.findByRole('button', { name: 'Resubmit IMG_0003.jpg' }));
    const dialog = screen.getByRole('dialog', { name: 'Resubmit this photo?' });
    expect(dialog).toHaveTextContent(/may charge this photo twice/);
    const confirm = within(dialog).getByRole('button', { name: 'Resubmit' });
    expect(confirm).toBeDisabled();
    fireEvent.click(confirm);
    expect(fake.callsTo('items:resubmit')).toHaveLength(0);
    await user.click(within(dialog).getByRole('checkbox', { name: 'I understand this may be charged twice' }));
    await user.click(confirm);
    await waitFor(() => expect(fake.callsTo('items:resubmit')).toEqual([{ itemId: 'i3', acknowledgeMayChargeTwice: true }]));
  });

  it('charged, no result: kept out of "Retry failed", reported to the provider as a CSV, resent only after a confirmation that shows the cost', async () => {
    const lost = item(4, 'charged-no-result', { executionId: 'exe_lost', creditsCharged: 2, reason: 'charged, but the service no longer knows execution exe_lost' });
    const csv = 'execution_id,submitted_at,credits,workflow_id,batch_id,photo,reason\r\nexe_lost,,2,grade,b1,IMG_0004.jpg,\r\n';
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 2, counts: counts({ saved: 1, 'charged-no-result': 1 }), unitCost: 2, state: 'completed', progress: 1 })],
      'batches:items': () => ({ total: 2, items: [item(1, 'saved', { outputs: ['/out/IMG_0001.jpg'] }), lost] }),
      'batches:providerReport': () => ({ rows: [], csv, fileName: 'batchroom-provider-report-2026-11-24.csv' }),
      'items:resubmit': () => item(4, 'pending'),
    });
    const downloads: string[] = [];
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => { downloads.push(blob.type); return 'blob:report'; };
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) { clicked.push(this.download); };
    try {
      const user = userEvent.setup({ delay: null });
      const { store } = renderApp(fake);
      act(() => store.getState().setView('queue'));
      expect(await screen.findByRole('button', { name: 'Report to provider (1)' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Retry failed/ })).toBeNull();
      expect(screen.getByText('Charged, no result', { selector: 'dt' })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Report to provider (1)' }));
      await waitFor(() => expect(clicked).toEqual(['batchroom-provider-report-2026-11-24.csv']));
      expect(fake.callsTo('batches:providerReport')).toEqual([{ batchId: 'b1' }]);
      expect(downloads).toEqual(['text/csv;charset=utf-8']);

      await user.click(await screen.findByRole('button', { name: 'Resubmit IMG_0004.jpg' }));
      const dialog = screen.getByRole('dialog', { name: 'Resubmit this photo?' });
      expect(dialog).toHaveTextContent(/no longer knows the execution/);
      expect(dialog).toHaveTextContent(/Sending it again costs 2 credits more/);
      await user.click(within(dialog).getByRole('checkbox', { name: 'I understand this charges 2 credits again' }));
      await user.click(within(dialog).getByRole('button', { name: 'Resubmit' }));
      await waitFor(() => expect(fake.callsTo('items:resubmit')).toEqual([{ itemId: 'i4', acknowledgeMayChargeTwice: true }]));
    } finally {
      URL.createObjectURL = createObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('says how a batch ended: failed, partly done or cancelled, never a green "Finished" over failures', async () => {
    const fake = standardBridge({
      'batches:list': () => [
        batch({ id: 'b1', total: 2, counts: counts({ failed: 2 }), state: 'completed', progress: 1 }),
        batch({ id: 'b2', total: 5, counts: counts({ saved: 4, cancelled: 1 }), state: 'cancelled', progress: 0.8 }),
        batch({ id: 'b3', total: 1, counts: counts({ saved: 1 }), state: 'completed', progress: 1 }),
      ],
      'batches:items': () => ({ total: 0, items: [] }),
    });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    const list = await screen.findByRole('heading', { name: 'Batches' });
    const section = list.closest('section')!;
    await waitFor(() => expect(section.querySelectorAll('.batch-card')).toHaveLength(3));
    const texts = [...section.querySelectorAll('.batch-card')].map((c) => c.textContent ?? '');
    expect(texts.some((t) => t.includes('Failed') && t.includes('2 photos'))).toBe(true);
    expect(texts.some((t) => t.includes('Cancelled (partly saved)') && t.includes('5 photos'))).toBe(true);
    expect(texts.some((t) => t.includes('Finished') && t.includes('1 photo ·'))).toBe(true);
    expect(texts.filter((t) => t.includes('Finished')).length).toBe(1);
  });

  it('teaches the next step when there is no batch', async () => {
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(standardBridge());
    act(() => store.getState().setView('queue'));
    await user.click(within(screen.getByRole('region', { name: 'The queue is empty' })).getByRole('button', { name: 'Choose a workflow' }));
    expect(store.getState().view).toBe('workflows');
  });
});
