import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { batch, estimate, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

async function openCaption(fake = standardBridge()) {
  const user = userEvent.setup();
  const app = renderApp(fake);
  await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
  await screen.findByRole('form', { name: 'Caption & Watermark settings' });
  return { user, fake, ...app };
}

describe('workflow catalog', () => {
  it('lists workflows with their cost and filters by tag and search', async () => {
    const user = userEvent.setup();
    renderApp(standardBridge());
    const list = await screen.findByRole('list', { name: 'Workflows' });
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Color Grade, 1 credit per photo' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'text', checked: false }));
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual([expect.stringContaining('Caption & Watermark')]);
    await user.click(screen.getByRole('radio', { name: 'All' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search workflows' }), 'backdrop');
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    await user.type(screen.getByRole('searchbox', { name: 'Search workflows' }), 'zzz');
    expect(screen.getByRole('region', { name: 'Nothing matches' })).toBeInTheDocument();
  });

  it('says so when the service listed only part of its catalog', async () => {
    const warning = 'The catalog may be incomplete: 3 workflows listed, but the service says more exist (the listing stopped after 50 pages).';
    renderApp(standardBridge({ 'workflows:list': () => ({ workflows: WORKFLOWS.map(summaryOf), warning }) }));
    expect(await screen.findByText(warning)).toHaveAttribute('role', 'status');
    expect(within(screen.getByRole('list', { name: 'Workflows' })).getAllByRole('button')).toHaveLength(3);
  });

  it('teaches the next step before a workflow is chosen', async () => {
    renderApp(standardBridge());
    expect(await screen.findByRole('region', { name: 'Pick a workflow to begin' })).toBeInTheDocument();
  });
});

describe('generated form', () => {
  it('renders selects for preset options, inputs for free text, chips for switches and the eight ratios', async () => {
    const { user } = await openCaption();
    expect(screen.getByRole('combobox', { name: 'Position' })).toHaveValue('bottom');
    expect(screen.getByRole('textbox', { name: /Caption/ })).toHaveValue('');
    const style = screen.getByRole('group', { name: 'Style' });
    expect(within(style).getByRole('button', { name: 'Drop shadow' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(style).getByRole('button', { name: 'Uppercase' }));
    expect(within(style).getByRole('button', { name: 'Uppercase' })).toHaveAttribute('aria-pressed', 'true');
    const ratios = screen.getByRole('radiogroup', { name: 'Aspect ratio' });
    expect(within(ratios).getAllByRole('radio')).toHaveLength(9);
    await user.click(within(ratios).getByRole('radio', { name: 'Aspect ratio 21:9' }));
    expect(within(ratios).getByRole('radio', { name: 'Aspect ratio 21:9' })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Image size' })).getByRole('radio', { name: '2K' }));
    expect(screen.getByRole('radio', { name: '2K' })).toHaveAttribute('aria-checked', 'true');
  });

  it('shows inline errors instead of spending when required fields are empty or too long', async () => {
    const { user, fake } = await openCaption();
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    // At the field, in the message and on the footer's line beside the button.
    expect(await screen.findAllByText('Caption is required.')).toHaveLength(3);
    expect(screen.getByRole('textbox', { name: /Caption/ })).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'a caption far too long for twenty');
    expect(screen.getByText(/Caption is too long/)).toBeInTheDocument();
    expect(fake.callsTo('batches:estimate')).toHaveLength(0);
  });

  it('takes typed paths, shows the summary, and starts the batch', async () => {
    const fake = standardBridge({
      'batches:estimate': () => estimate({ workflowId: 'caption-watermark', costPerItem: 2, totalCost: 4 }),
      'batches:create': () => batch({ workflowName: 'Caption & Watermark' }),
      'batches:items': () => ({ total: 0, items: [] }),
    });
    const { user, store } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hello');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/shoot{Enter}');
    // The name first, its folder after it (the full path on hover).
    const list = screen.getByRole('list', { name: 'Photos to process' });
    expect(within(list).getByTitle('/photos/shoot')).toHaveTextContent('shoot /photos');
    // The draft's price is main's estimate of it (the photos in the folder counted), never a guess from file names.
    const cost = screen.getByRole('status', { name: 'Cost of this batch' });
    expect(cost).toHaveTextContent('estimating…');
    await waitFor(() => expect(cost).toHaveTextContent('2 photos · 4 credits'));
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/IMG_1.JPG{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));

    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByText('4 credits')).toBeInTheDocument();
    expect(within(dialog).getByText('1,196 credits after this batch')).toBeInTheDocument();
    expect(within(dialog).getByText('1 skipped file')).toBeInTheDocument();
    expect(within(dialog).getByRole('table', { name: 'Output names' })).toHaveTextContent('a_color-grade.jpg');
    // The folder main resolved (here the fake's answer) is what the summary shows.
    expect(within(dialog).getByText('/in/Batchroom')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Start 2 photos' }));
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    expect(fake.callsTo('batches:create')).toHaveLength(1);
  });

  it('reports photos already done, offers to run them again with their cost, and lists only part of the names', async () => {
    const done = [1, 2, 3].map((n) => ({ path: `/p/${n}.jpg`, doneAt: '2026-11-23T10:00:00.000Z', outputs: [`/out/${n}_color-grade.jpg`] }));
    const fake = standardBridge({
      'batches:estimate': (spec) => ((spec as { rerun?: boolean }).rerun
        ? estimate({ itemCount: 5, totalCost: 5, alreadyDone: done, rerun: true, namingPreviewMore: 3 })
        : estimate({ itemCount: 2, totalCost: 2, alreadyDone: done, namingPreviewMore: 10 })),
      'batches:create': () => batch({ workflowName: 'Caption & Watermark' }),
      'batches:items': () => ({ total: 0, items: [] }),
    });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByTestId('already-done')).toHaveTextContent(/^3 already done on 2026-11-23 — results in \/out: skipped/);
    expect(within(dialog).getByRole('table', { name: 'Output names' })).toHaveTextContent('…and 10 more');
    await user.click(within(dialog).getByRole('button', { name: 'Run them again (3 credits)' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Start 5 photos' })).toBeInTheDocument());
    expect(fake.callsTo('batches:estimate').map((args) => (args as { rerun?: boolean }).rerun)).toEqual([false, true]);
    expect(within(dialog).getByTestId('already-done')).toHaveTextContent(/running them again/);
    await user.click(within(dialog).getByRole('button', { name: 'Start 5 photos' }));
    await waitFor(() => expect(fake.callsTo('batches:create')).toHaveLength(1));
    expect(fake.callsTo('batches:create')[0]).toMatchObject({ rerun: true });
  });

  it('offers to try 3 photos first with both steps\' costs, and sends tryFirst', async () => {
    const fake = standardBridge({
      'batches:estimate': () => estimate({ itemCount: 12, totalCost: 24, costPerItem: 2 }),
      'batches:create': () => batch({ workflowName: 'Caption & Watermark', total: 3, trialRest: 9 }),
      'batches:items': () => ({ total: 0, items: [] }),
    });
    const { user, store } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/shoot{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByTestId('try-first')).toHaveTextContent('Try 3 photos first (6 credits), review them, then continue with the other 9 (18 credits).');
    await user.click(within(dialog).getByRole('button', { name: 'Try on 3 photos first' }));
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    expect(fake.callsTo('batches:create')[0]).toMatchObject({ tryFirst: 3 });
  });

  it('sends the chosen file format and says what the results will be', async () => {
    const resultFile = { longEdge: 2048, largestOriginalEdge: 6000, formats: ['tiff' as const], colour: 'srgb' as const, metadata: 'keep' as const };
    const fake = standardBridge({ 'batches:estimate': () => estimate({ resultFile }) });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.tif{Enter}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'File format' }), 'TIFF (8-bit, LZW)');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByText('Results 2,048 px on the long edge (originals up to 6,000 px) · TIFF, sRGB, metadata kept')).toBeInTheDocument();
    expect(fake.callsTo('batches:estimate')[0]).toMatchObject({ output: { format: 'tiff', quality: 92, colour: 'srgb' } });
  });

  it('lists the files each photo becomes when the batch makes several, paid once', async () => {
    const deliverables = [
      { folder: 'full', format: 'jpeg' as const, size: { fit: 'original' as const }, watermark: false },
      { folder: 'web/J1', format: 'webp' as const, size: { fit: 'long-edge' as const, longEdge: 2048 }, watermark: true },
    ];
    const { user } = await openCaption(standardBridge({ 'batches:estimate': () => estimate({ deliverables }) }));
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    const list = within(dialog).getByTestId('deliverables');
    expect(list).toHaveTextContent('Each photo becomes 2 files, paid once:');
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['full/: JPEG', 'web/J1/: WebP, long edge 2048 px, watermarked']);
  });

  it('counts RAW+JPEG pairs once in one line and sends the pairing setting', async () => {
    const pair = (n: number) => ({ path: `/p/shoot/IMG_${n}.CR3`, reason: `RAW+JPEG pair: edited once, from IMG_${n}.JPG`, rawPair: true });
    const fake = standardBridge({ 'batches:estimate': () => estimate({ skipped: [pair(1), pair(2), { path: '/p/shoot/notes.txt', reason: 'not a supported image type (.txt)' }] }) });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/shoot{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByTestId('raw-pairs')).toHaveTextContent('2 RAW+JPEG pairs counted once');
    expect(within(dialog).getByText(/edited once, from IMG_2\.JPG/)).toBeInTheDocument();
    expect(fake.callsTo('batches:estimate')[0]).toMatchObject({ inputs: { rawPairs: 'jpeg' } });
  });

  it('marks the field main or the service blamed, and clears the mark once it is edited', async () => {
    const fake = standardBridge({
      'batches:estimate': () => {
        throw new AppError('validation', 'The service refused caption: it may not contain emoji.', { field: 'texts.caption', hint: 'Use plain text.' });
      },
    });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const caption = screen.getByRole('textbox', { name: /Caption/ });
    await waitFor(() => expect(caption).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText('The service refused caption: it may not contain emoji.')).toHaveLength(3);
    expect(screen.getByText('Use plain text.')).toBeInTheDocument();
    await user.type(caption, '!');
    expect(caption).not.toHaveAttribute('aria-invalid');
  });

  it('says how many credits are missing when the service refuses for credits', async () => {
    const fake = standardBridge({
      'batches:estimate': () => {
        throw new AppError('insufficient_credits', 'this batch costs 39 credits but the balance is 36', { required: 39, available: 36 });
      },
    });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    expect(within(await screen.findByRole('alert')).getByText(/This needs 39 credits; you have 36 credits/)).toBeInTheDocument();
  });

  it('blocks the start when the balance does not cover the batch, and says why', async () => {
    const fake = standardBridge({ 'batches:estimate': () => estimate({ totalCost: 5000, fitsBalance: false }) });
    const { user } = await openCaption(fake);
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByText(/Not enough credits/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /^Start/ })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('adds dropped files anywhere on the window through the host', async () => {
    window.batchroomHost = { pathsForFiles: async (files) => files.map((f) => `/state/uploads/4a1c1dc9cbf38059/${f.name}`) };
    try {
      const { store } = await openCaption();
      const file = new File(['x'], 'IMG_1.jpg', { type: 'image/jpeg' });
      const dataTransfer = { types: ['Files'], files: [file], items: [{ kind: 'file', webkitGetAsEntry: () => ({ isFile: true, isDirectory: false, name: 'IMG_1.jpg' }) }] };
      await act(async () => {
        const drop = new Event('drop', { bubbles: true, cancelable: true });
        Object.assign(drop, { dataTransfer });
        window.dispatchEvent(drop);
      });
      await waitFor(() => expect(store.getState().draft.paths).toEqual(['/state/uploads/4a1c1dc9cbf38059/IMG_1.jpg']));
      // The browser host's staging folder is an internal detail: the list shows the photo's own name only.
      expect(within(screen.getByRole('list', { name: 'Photos to process' })).getByTitle('/state/uploads/4a1c1dc9cbf38059/IMG_1.jpg')).toHaveTextContent(/^IMG_1\.jpg$/);
    } finally {
      delete window.batchroomHost;
    }
  });

  it('explains that drops need a host when none is present', async () => {
    const { store } = await openCaption();
    await act(async () => {
      const drop = new Event('drop', { bubbles: true, cancelable: true });
      Object.assign(drop, { dataTransfer: { types: ['Files'], files: [new File(['x'], 'a.jpg')], items: [] } });
      window.dispatchEvent(drop);
    });
    await waitFor(() => expect(store.getState().notices.at(-1)?.message).toMatch(/Type the path/));
    expect(store.getState().draft.paths).toEqual([]);
  });
});
