import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportRequest } from '../../shared/engine/export-request';
import { makeRecipe } from '../../shared/recipes/recipe';
import { batch, counts, item, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

// Review → "Export again…": the batch's paid results made into other files (a format and size, or a recipe's
// deliverables) as a new batch at 0 credits; what cannot be exported is said.

afterEach(cleanup);

const recipe = makeRecipe({
  name: 'Web set', workflowId: 'color-grade',
  deliverables: [{ format: 'jpeg', folder: 'full' }, { format: 'webp', folder: 'web', size: { fit: 'long-edge', longEdge: 2048 } }],
});

function exportBridge() {
  const items = [item(0, 'saved'), item(1, 'saved')];
  return standardBridge({
    'batches:list': () => [batch({ state: 'completed', total: 2, counts: counts({ saved: 2 }), progress: 1 })],
    'batches:items': () => ({ total: items.length, items }),
    'recipes:list': () => ({ recipes: [recipe], problems: [] }),
    'batches:export': () => ({
      batches: [batch({ id: 'b9', total: 2, createdAt: '2026-11-22T11:00:00.000Z' })],
      notExportable: [{ batchId: 'b1', displayName: 'IMG_0002.jpg', reason: 'never paid for in this batch: nothing to export (run it to pay for it)' }],
    }),
  });
}

async function openExport() {
  const user = userEvent.setup({ delay: null });
  const fake = exportBridge();
  const app = renderApp(fake);
  await waitFor(() => expect(Object.values(app.store.getState().itemLists).some((l) => l.batchId === 'b1' && l.loaded)).toBe(true));
  act(() => app.store.getState().openReview('b1'));
  await screen.findByRole('region', { name: 'Review' });
  await user.click(screen.getByRole('button', { name: 'Export again…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Export 2 results again' });
  await user.type(within(dialog).getByLabelText('Export into folder'), '/deliver/web{Enter}');
  return { user, fake, dialog, ...app };
}

describe('export again from Review', () => {
  it('asks for a format and long edge, sends a free export, and opens its batch in the queue', async () => {
    const { user, fake, dialog, store } = await openExport();
    await user.selectOptions(within(dialog).getByLabelText('Format'), 'PNG');
    await user.type(within(dialog).getByLabelText(/Long edge in pixels/), '1600');
    await user.click(within(dialog).getByRole('button', { name: 'Export · 0 credits' }));
    await waitFor(() => expect(fake.callsTo('batches:export')).toHaveLength(1));
    expect(fake.callsTo('batches:export')[0]).toEqual({
      from: { batchId: 'b1' }, output: { outputFolder: '/deliver/web', format: 'png', size: { fit: 'long-edge', longEdge: 1600 } }, deliverables: [],
    } satisfies ExportRequest);
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    expect(store.getState().selectedBatchId).toBe('b9');
    expect(await screen.findByText(/Exporting 2 paid results again: 0 credits\. 1 cannot be: IMG_0002\.jpg \(never paid for/)).toBeInTheDocument();
  });

  it('makes a recipe\'s deliverables when one is chosen, and refuses a long edge that is not a size', async () => {
    const { user, fake, dialog } = await openExport();
    await user.type(within(dialog).getByLabelText(/Long edge in pixels/), '12.5');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Long edge: a whole number of pixels');
    expect(within(dialog).getByRole('button', { name: 'Export · 0 credits' })).toBeDisabled();
    await user.selectOptions(within(dialog).getByLabelText("Make a recipe's deliverables"), 'Web set (2 files per photo)');
    await user.click(within(dialog).getByRole('button', { name: 'Export · 0 credits' }));
    await waitFor(() => expect(fake.callsTo('batches:export')).toHaveLength(1));
    const [sent] = fake.callsTo('batches:export') as ExportRequest[];
    expect(sent!.output).toMatchObject({ outputFolder: '/deliver/web', format: 'jpeg', folder: 'full' });
    expect(sent!.deliverables).toEqual([expect.objectContaining({ format: 'webp', folder: 'web', size: { fit: 'long-edge', longEdge: 2048 } })]);
  });
});
