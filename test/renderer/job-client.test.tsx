import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchSpecInput } from '../../shared/engine/model';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import { batch, estimate, hotFolder, standardBridge } from './helpers/fixtures';
import { renderApp, showView } from './helpers/render-app';
import { jobReport } from './helpers/reports';

// Job and client on the batch form (issue 32 #4): typed or picked from the jobs and clients the reports know, sent
// in the batch spec, shown in the summary, and kept for the next batch of the session; a hot folder carries them too.

afterEach(cleanup);

function bridge() {
  return standardBridge({
    'reports:byGroup': (q) => jobReport(q.by),
    'batches:estimate': () => estimate({ workflowId: 'caption-watermark', costPerItem: 2, totalCost: 4 }),
    'batches:create': () => batch({ workflowName: 'Caption & Watermark' }),
    'batches:items': () => ({ total: 0, items: [] }),
  });
}

/** The values a field's datalist suggests. */
const suggested = (input: HTMLElement) =>
  [...(document.getElementById(input.getAttribute('list') ?? '')?.querySelectorAll('option') ?? [])].map((o) => o.value);

async function fillCaption(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
  await screen.findByRole('form', { name: 'Caption & Watermark settings' });
  await user.type(screen.getByRole('textbox', { name: /Caption/ }), 'Hello');
  await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/shoot{Enter}');
}

async function start(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Review batch…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
  await user.click(within(dialog).getByRole('button', { name: 'Start 2 photos' }));
  return dialog;
}

describe('job and client on the batch form', () => {
  it('sends them in the spec, shows them in the summary, suggests known ones and keeps them for the next batch', async () => {
    const user = userEvent.setup({ delay: null });
    const fake = bridge();
    const { store } = renderApp(fake);
    await fillCaption(user);
    const job = screen.getByRole('combobox', { name: 'Job' });
    const client = screen.getByRole('combobox', { name: 'Client' });
    // Earlier jobs and clients, from the reports over all time (the batches naming none are no suggestion).
    await waitFor(() => expect(suggested(job)).toEqual(['Smith wedding']));
    expect(suggested(client)).toEqual(['Smith family']);
    expect(fake.callsTo('reports:byGroup')).toEqual([{ by: 'job' }, { by: 'client' }]);

    await user.type(job, '  Jones portraits ');
    await user.type(client, 'Jones');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByTestId('job-client')).toHaveTextContent('Job Jones portraits · Client Jones');
    await user.click(within(dialog).getByRole('button', { name: 'Start 2 photos' }));
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    expect(fake.callsTo('batches:create')[0]).toMatchObject({ job: 'Jones portraits', client: 'Jones' });

    // The next batch of the session: the same job and client are filled in, and the new ones are suggested too.
    store.getState().setView('workflows');
    const again = await screen.findByRole('combobox', { name: 'Job' });
    expect(again).toHaveValue('  Jones portraits ');
    expect(suggested(again)).toEqual(['Smith wedding', 'Jones portraits']);
    expect(suggested(screen.getByRole('combobox', { name: 'Client' }))).toEqual(['Smith family', 'Jones']);
    // Asked once per session, not on every visit of the form.
    expect(fake.callsTo('reports:byGroup')).toHaveLength(2);
  });

  it('sends no job or client when the fields are left blank', async () => {
    const user = userEvent.setup({ delay: null });
    const fake = bridge();
    const { store } = renderApp(fake);
    await fillCaption(user);
    await user.type(screen.getByRole('combobox', { name: 'Client' }), '   ');
    const dialog = await start(user);
    expect(within(dialog).queryByTestId('job-client')).toBeNull();
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    const spec = fake.callsTo('batches:create')[0] as BatchSpecInput;
    expect('job' in spec || 'client' in spec).toBe(false);
  });
});

describe('job and client of a hot folder', () => {
  it('saves them trimmed with the folder, shows them when editing, and a cleared one as none', async () => {
    const saved: HotFolderConfig[] = [];
    const existing = hotFolder({}, { job: 'Smith wedding', client: 'Smith family' });
    const fake = standardBridge({
      'reports:byGroup': (q) => jobReport(q.by),
      'hotFolders:list': () => [existing],
      'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); },
    });
    const { user } = await showView('hotFolders', fake);
    await user.click(await screen.findByRole('button', { name: 'Edit incoming' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit hot folder' });
    expect(within(dialog).getByRole('combobox', { name: 'Job' })).toHaveValue('Smith wedding');
    const client = within(dialog).getByRole('combobox', { name: 'Client' });
    expect(client).toHaveValue('Smith family');
    await user.clear(client);
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ id: 'h1', job: 'Smith wedding', client: null });

    await user.click(screen.getByRole('button', { name: 'Add hot folder' }));
    dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/jones');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'cool');
    await user.type(within(dialog).getByRole('combobox', { name: 'Job' }), ' Jones portraits ');
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toMatchObject({ path: '/watch/jones', job: 'Jones portraits', client: null });
  });
});
