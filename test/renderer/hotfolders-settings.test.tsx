import type { KeyStatus } from '../../shared/settings/key-status';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import { FakeFailure } from './helpers/fake-bridge';
import { hotFolder, keyStatus, settings, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

afterEach(cleanup);

const show = (view: 'hotFolders' | 'settings', fake = standardBridge()) => showView(view, fake);

describe('hot folders', () => {
  it('adds a folder: validates, then saves with the generated form’s parameters', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({ 'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); } });
    const { user } = await show('hotFolders', fake);
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    // The problems appear once the save's validation has rendered: waited for, not assumed (a loaded CI missed them).
    expect(await within(dialog).findByText('choose a folder to watch')).toBeInTheDocument();
    expect(await within(dialog).findByText('choose a workflow')).toBeInTheDocument();
    expect(saved).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/in');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'cool');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'RAW+JPEG pairs' }), 'raw');
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ path: '/watch/in', workflowId: 'color-grade', outputFolder: '/out', parameters: { texts: { look: 'cool' } }, rawPairs: 'raw', existingFiles: 'dry-run', enabled: false });
    expect(await screen.findByRole('article', { name: 'Hot folder in' })).toBeInTheDocument();
  });

  it('arms, dry-runs, shows the unavailable reason and live activity', async () => {
    const fake = standardBridge({
      'hotFolders:list': () => [hotFolder({ state: 'unavailable', reason: 'The folder is on a drive that is not connected.' })],
      'hotFolders:setArmed': ({ armed }) => hotFolder({ state: armed ? 'armed' : 'disarmed' }, { enabled: armed }),
      'hotFolders:dryRun': () => ({ path: '/watch/incoming', toProcess: [{ path: '/watch/incoming/a.jpg', output: '/out/hot/a_color-grade.jpg' }], alreadyDone: [], colliding: [], deliverables: [], unsupported: [{ path: '/watch/incoming/x.psd', reason: 'unsupported format' }], totalCredits: 1 }),
    });
    const { user } = await show('hotFolders', fake);
    const card = await screen.findByRole('article', { name: 'Hot folder incoming' });
    expect(within(card).getByText('Unavailable')).toBeInTheDocument();
    expect(within(card).getByText('The folder is on a drive that is not connected.')).toBeInTheDocument();

    await user.click(within(card).getByRole('switch', { name: 'Watch incoming' }));
    await waitFor(() => expect(within(card).getByText('Watching')).toBeInTheDocument());
    expect(within(card).getByRole('switch', { name: 'Watch incoming' })).toBeChecked();

    await user.click(within(card).getByRole('button', { name: 'Dry run incoming' }));
    const report = await within(card).findByRole('region', { name: 'Dry run of incoming' });
    expect(report).toHaveTextContent('a.jpg → a_color-grade.jpg');
    expect(report).toHaveTextContent('x.psd — unsupported format');

    act(() => fake.emit('hotFolders:activity', { folderId: 'h1', kind: 'saved', path: '/watch/incoming/a.jpg', message: 'Saved a_color-grade.jpg', at: '2026-11-22T10:05:00.000Z' }));
    expect(within(screen.getByRole('region', { name: 'Activity' })).getByText('Saved a_color-grade.jpg')).toBeInTheDocument();
  });

  it('the editor\'s workflow form does not leak into the batch being built on Workflows', async () => {
    const { user, store } = await show('hotFolders');
    act(() => store.getState().setView('workflows'));
    await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
    await user.type(await screen.findByRole('textbox', { name: /Caption/ }), 'Hello');
    act(() => store.getState().setView('hotFolders'));
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'cool');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    act(() => store.getState().setView('workflows'));
    expect(store.getState().selectedWorkflowId).toBe('caption-watermark');
    expect(await screen.findByRole('textbox', { name: /Caption/ })).toHaveValue('Hello');
  });

  it('processes or leaves the photos held for review', async () => {
    const held = hotFolder({ state: 'awaiting-review', reason: '2 files were already in the folder', awaitingReview: 2 }, { enabled: true });
    const fake = standardBridge({
      'hotFolders:list': () => [held],
      'hotFolders:setArmed': () => hotFolder({ state: 'armed' }, { enabled: true }),
      'hotFolders:save': (config) => hotFolder({ state: 'armed' }, config as HotFolderConfig),
    });
    const { user } = await show('hotFolders', fake);
    const card = await screen.findByRole('article', { name: 'Hot folder incoming' });
    await user.click(within(card).getByRole('button', { name: 'Leave them' }));
    await waitFor(() => expect(fake.callsTo('hotFolders:save')).toEqual([expect.objectContaining({ id: 'h1', existingFiles: 'skip' })]));
    act(() => fake.emit('hotFolders:changed', [held]));
    await user.click(within(card).getByRole('button', { name: 'Process 2 waiting photos (2 credits)' }));
    await waitFor(() => expect(fake.callsTo('hotFolders:setArmed')).toEqual([{ id: 'h1', armed: true }]));
    await waitFor(() => expect(within(card).queryByRole('button', { name: /waiting photos/ })).not.toBeInTheDocument());
  });

  it('offers the native folder picker in Electron', async () => {
    const fake = standardBridge({ 'app:info': () => ({ version: '0.1.0', host: 'electron', platform: 'darwin' }), 'files:pickFolder': () => '/Users/me/Incoming' });
    const { user } = await show('hotFolders', fake);
    await user.click((await screen.findAllByRole('button', { name: 'Add hot folder' }))[0]!);
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Choose the folder to watch' }));
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Folder to watch' })).toHaveValue('/Users/me/Incoming'));
  });

  it('explains that a browser cannot watch a dropped folder', async () => {
    const { store } = await show('hotFolders');
    window.batchroomHost = { pathsForFiles: async () => ['/staged/x.jpg'] };
    try {
      await act(async () => {
        const drop = new Event('drop', { bubbles: true, cancelable: true });
        Object.assign(drop, { dataTransfer: { types: ['Files'], files: [new File(['x'], 'x.jpg')], items: [] } });
        window.dispatchEvent(drop);
      });
      expect(store.getState().notices.at(-1)?.message).toMatch(/type the folder’s path/);
      expect(store.getState().pendingFolderPath).toBeNull();
    } finally {
      delete window.batchroomHost;
    }
  });

  it('opens the editor with a folder dropped on the screen', async () => {
    const { store } = await show('hotFolders');
    act(() => store.getState().setPendingFolderPath('/dropped/folder'));
    expect(within(screen.getByRole('dialog', { name: 'New hot folder' })).getByRole('textbox', { name: 'Folder to watch' })).toHaveValue('/dropped/folder');
  });
});

describe('settings', () => {
  it('sends the key once, clears the field, and shows it back only masked', async () => {
    const stored: KeyStatus = { mode: 'live', serviceUrl: 'https://api.example/api/v1', hasKey: true, keyMasked: 'sk_live_…9f2c', source: 'keychain', sandboxReason: null, keychainAvailable: true, message: 'Using the key from the keychain.', otherServiceKeys: [], awaitingOriginConfirmation: false };
    const fake = standardBridge();
    fake.handle('key:set', () => {
      fake.handle('key:status', () => stored);
      return stored;
    });
    const { user } = await show('settings', fake);
    const field = await screen.findByLabelText('Enter your API key');
    expect(field).toHaveAttribute('type', 'password');
    await user.type(field, 'sk_live_abcdefgh12349f2c');
    await user.click(screen.getByRole('button', { name: 'Save and check key' }));
    expect(await screen.findByLabelText('Masked API key')).toHaveTextContent('sk_live_…9f2c');
    expect(screen.getByText(/Key saved and accepted/)).toBeInTheDocument();
    expect(fake.callsTo('key:set')).toEqual([{ apiKey: 'sk_live_abcdefgh12349f2c' }]);
    expect(screen.getByLabelText('Replace the key')).toHaveValue('');
    expect(document.body.innerHTML).not.toContain('abcdefgh1234');
  });

  it('offers a key saved for another service, and sends it there only when the user says so', async () => {
    const elsewhere = { ...keyStatus, otherServiceKeys: [{ serviceUrl: 'https://old.example/api/v1', keyMasked: 'sk_live_…77aa' }] };
    const moved: KeyStatus = { ...keyStatus, mode: 'live', hasKey: true, keyMasked: 'sk_live_…77aa', source: 'keychain', sandboxReason: null, message: 'Using the key from the keychain.' };
    const fake = standardBridge({ 'key:status': () => elsewhere });
    fake.handle('key:reuse', () => { fake.handle('key:status', () => moved); return moved; });
    const { user } = await show('settings', fake);
    const offer = await screen.findByRole('group', { name: 'Key saved for another service' });
    expect(offer).toHaveTextContent('https://old.example/api/v1');
    expect(offer).toHaveTextContent('sk_live_…77aa');
    expect(fake.callsTo('key:reuse')).toEqual([]);
    await user.click(within(offer).getByRole('button', { name: 'Use it for this service' }));
    expect(fake.callsTo('key:reuse')).toEqual([{ fromServiceUrl: 'https://old.example/api/v1' }]);
    expect(await screen.findByLabelText('Masked API key')).toHaveTextContent('sk_live_…77aa');
  });

  it('asks before sending the environment key to a service it was not first used with', async () => {
    const waiting: KeyStatus = { ...keyStatus, mode: 'live', sandboxReason: null, awaitingOriginConfirmation: true, message: 'The API key was not sent.' };
    const confirmed: KeyStatus = { ...waiting, hasKey: true, keyMasked: 'sk_live_…0001', source: 'env', awaitingOriginConfirmation: false };
    const fake = standardBridge({ 'key:status': () => waiting });
    fake.handle('key:allowOrigin', () => { fake.handle('key:status', () => confirmed); return confirmed; });
    const { user } = await show('settings', fake);
    const ask = await screen.findByRole('group', { name: 'Confirm the service for this key' });
    await user.click(within(ask).getByRole('button', { name: 'Use it for this service' }));
    expect(fake.callsTo('key:allowOrigin')).toEqual([{}]);
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Confirm the service for this key' })).not.toBeInTheDocument());
  });

  it('explains a rejected key in plain words with the detail one click away', async () => {
    const fake = standardBridge({ 'key:set': () => { throw new FakeFailure('unauthorized', 'HTTP 401 from /balance'); } });
    const { user } = await show('settings', fake);
    await user.type(await screen.findByLabelText('Enter your API key'), 'sk_live_wrongwrong');
    await user.click(screen.getByRole('button', { name: 'Save and check key' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service did not accept the API key');
    expect(alert).not.toHaveTextContent('HTTP 401');
    await user.click(within(alert).getByRole('button', { name: 'Details' }));
    expect(alert).toHaveTextContent('unauthorized: HTTP 401 from /balance');
  });

  it('previews the naming template live and refuses unknown tokens before saving', async () => {
    const { user, fake } = await show('settings');
    const template = await screen.findByRole('textbox', { name: 'Naming template' });
    await user.clear(template);
    await user.type(template, '{{name}-edited{{ext}');
    expect(screen.getByTestId('naming-preview')).toHaveTextContent('IMG_2041-edited.jpg');
    await user.type(template, '{{bogus}');
    await user.tab();
    expect(screen.getByRole('alert')).toHaveTextContent('Unknown token: {bogus}');
    expect(fake.callsTo('settings:update')).toHaveLength(0);
  });

  it('saves switches, selects and numbers, and checks numbers first', async () => {
    const { user, fake } = await show('settings');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Sidecar next to each result' }), 'xmp');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sandbox' }), 'always');
    await user.selectOptions(screen.getByRole('combobox', { name: 'RAW+JPEG pairs (same name, same folder)' }), 'both');
    const concurrency = screen.getByRole('spinbutton', { name: 'Photos in flight at once' });
    await user.clear(concurrency);
    await user.type(concurrency, '99');
    await user.tab();
    expect(screen.getByRole('alert')).toHaveTextContent('from 1 to 32');
    await user.clear(concurrency);
    await user.type(concurrency, '6{Enter}');
    await waitFor(() => expect(fake.callsTo('settings:update')).toEqual([{ patch: { sidecar: 'xmp', sidecars: false } }, { patch: { sandboxMode: 'always' } }, { patch: { rawPairs: 'both' } }, { patch: { concurrency: 6 } }]));
  });

  it('applies the theme to the document', async () => {
    const fake = standardBridge({ 'settings:update': ({ patch }) => ({ ...settings, ...patch } as typeof settings) });
    const { user } = await show('settings', fake);
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
  });
});
