import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../shared/engine/model';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

function reviewBridge() {
  const items = [item(0, 'saved'), item(1, 'failed'), item(2, 'saved'), item(3, 'saved')];
  return standardBridge({
    'batches:list': () => [batch({ state: 'completed', total: 4, counts: counts({ saved: 3, failed: 1 }), progress: 1 })],
    'batches:items': () => ({ total: items.length, items }),
    'items:setVerdict': ({ itemId, verdict }) => ({ ...items.find((i) => i.id === itemId)!, verdict: verdict as Verdict }),
    'items:rerun': () => batch({ id: 'b2', createdAt: '2026-11-22T11:00:00.000Z' }),
    'files:reveal': () => ({ revealed: true }),
    'files:openFolder': () => ({ opened: true }),
  });
}

async function openReview(fake = reviewBridge()) {
  const user = userEvent.setup({ delay: null });
  const app = renderApp(fake);
  await waitFor(() => expect(Object.values(app.store.getState().itemLists).some((l) => l.batchId === 'b1' && l.loaded)).toBe(true));
  act(() => app.store.getState().openReview('b1'));
  await screen.findByRole('region', { name: 'Review' });
  return { user, fake, ...app };
}

describe('review', () => {
  it('shows before and after from preview URLs with a keyboard-operable divider', async () => {
    const { store } = await openReview();
    expect(await screen.findByRole('img', { name: 'Before: IMG_0000.jpg' })).toHaveAttribute('src', 'blob:preview/in/IMG_0.jpg');
    expect(screen.getByRole('img', { name: 'After: IMG_0000.jpg' })).toHaveAttribute('src', 'blob:preview/out/IMG_0_color-grade.jpg');
    const divider = screen.getByRole('slider', { name: 'Before and after divider' });
    fireEvent.keyDown(divider, { key: 'ArrowRight' });
    expect(divider).toHaveAttribute('aria-valuenow', '52');
    fireEvent.keyDown(divider, { key: 'End' });
    expect(divider).toHaveAttribute('aria-valuenow', '100');
    // The divider's arrows do not also step to the next photo.
    expect(store.getState().reviewItemId).toBe('i0');
  });

  it('drags the divider with the pointer', async () => {
    await openReview();
    const divider = await screen.findByRole('slider', { name: 'Before and after divider' });
    const frame = divider.parentElement!;
    frame.getBoundingClientRect = () => ({ left: 100, width: 400, top: 0, height: 300, right: 500, bottom: 300, x: 100, y: 0, toJSON: () => ({}) });
    fireEvent.pointerDown(frame, { clientX: 200, pointerId: 1 });
    expect(divider).toHaveAttribute('aria-valuenow', '25');
    fireEvent.pointerMove(frame, { clientX: 400, pointerId: 1 });
    expect(divider).toHaveAttribute('aria-valuenow', '75');
    fireEvent.pointerUp(frame, { pointerId: 1 });
    fireEvent.pointerMove(frame, { clientX: 500, pointerId: 1 });
    expect(divider).toHaveAttribute('aria-valuenow', '75');
  });

  it('navigates the batch by keyboard, skipping items without results, and records verdicts', async () => {
    const { user, fake } = await openReview();
    const region = screen.getByRole('region', { name: 'Review' });
    expect(within(region).getByText('1 of 3')).toBeInTheDocument();
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    expect(within(region).getByText('2 of 3')).toBeInTheDocument();
    expect(screen.getByText('IMG_0002.jpg')).toBeInTheDocument();
    fireEvent.keyDown(region, { key: 'r' });
    await waitFor(() => expect(screen.getByRole('button', { name: '✕ Reject' })).toHaveAttribute('aria-pressed', 'true'));
    await user.click(screen.getByRole('button', { name: '✓ Approve' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '✓ Approve' })).toHaveAttribute('aria-pressed', 'true'));
    expect(fake.callsTo('items:setVerdict')).toEqual([{ itemId: 'i2', verdict: 'rejected' }, { itemId: 'i2', verdict: 'approved' }]);
  });

  it('switches to side by side and zooms', async () => {
    const { user } = await openReview();
    await user.click(screen.getByRole('radio', { name: 'Side by side' }));
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(screen.getByText('Before', { selector: 'figcaption' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '4×' }));
    expect(screen.getByRole('radio', { name: '4×' })).toHaveAttribute('aria-checked', 'true');
  });

  it('in the desktop app: reveals the file and opens the output folder', async () => {
    const fake = reviewBridge();
    fake.handle('app:info', () => ({ version: '0.1.0', host: 'electron' as const, platform: 'darwin' }));
    const { user } = await openReview(fake);
    await user.click(await screen.findByRole('button', { name: 'Show in folder' }));
    await user.click(screen.getByRole('button', { name: 'Open output folder' }));
    expect(fake.callsTo('files:reveal')).toEqual([{ path: '/out/IMG_0_color-grade.jpg' }]);
    expect(fake.callsTo('files:openFolder')).toEqual([{ path: '/out' }]);
  });

  it('in the browser: offers only what a browser can do — download the result, copy the paths', async () => {
    const { user, fake } = await openReview();
    expect(screen.queryByRole('button', { name: 'Show in folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open output folder' })).toBeNull();
    const download = screen.getByRole('link', { name: 'Download' });
    // The result file itself from the host's download route, never its screen rendition (a TIFF is shown as a JPEG).
    expect(download.getAttribute('href')).toMatch(/^\/download\/[\w-]+\/[\w-]+$/);
    expect(download).toHaveAttribute('download', 'IMG_0_color-grade.jpg');
    expect(screen.getByRole('link', { name: 'Download all' }).getAttribute('href')).toMatch(/^\/download\/[\w-]+\.zip$/);
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => { written.push(text); } } });
    await user.click(screen.getByRole('button', { name: 'Copy folder path' }));
    expect(written).toEqual(['/out']);
    expect(await screen.findByText('Copied /out')).toBeInTheDocument();
    expect(fake.callsTo('files:reveal')).toEqual([]);
  });

  it('re-runs rejected results with changed parameters as a new batch', async () => {
    const { user, fake, store } = await openReview();
    fireEvent.keyDown(screen.getByRole('region', { name: 'Review' }), { key: 'r' });
    await user.click(await screen.findByRole('button', { name: 'Re-run rejected (1)…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-run 1 rejected photo' });
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'mono');
    await user.click(within(dialog).getByRole('button', { name: 'Re-run with these settings' }));
    await waitFor(() => expect(fake.callsTo('items:rerun')).toEqual([{ itemIds: ['i0'], parameters: { texts: { look: 'mono' } } }]));
    expect(store.getState().view).toBe('queue');
    expect(store.getState().selectedBatchId).toBe('b2');
  });

  it('teaches where results come from when there is nothing to review', async () => {
    const user = userEvent.setup({ delay: null });
    const { store } = renderApp(standardBridge());
    act(() => store.getState().setView('review'));
    await user.click(within(await screen.findByRole('region', { name: 'Nothing to review yet' })).getByRole('button', { name: 'Go to the queue' }));
    expect(store.getState().view).toBe('queue');
  });
});
