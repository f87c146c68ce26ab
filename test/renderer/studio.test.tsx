import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import type { Settings } from '../../shared/settings/schema';
import type { StudioStatus } from '../../shared/studio/model';
import { STUDIO_REFRESH_MS } from '../../renderer/screens/hotfolders/StudioPanel';
import { FakeFailure } from './helpers/fake-bridge';
import { hotFolder, settings, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// The app's side of studio mode: Settings › Shared studio ledger, the hot-folder editor's studio name, the cards'
// studio state and the Studio panel on Hot folders.

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const LEDGER = 'postgres://studio@nas.local:5432/batchroom';
const withLedger: Settings = { ...settings, studioLedgerUrl: LEDGER };

const show = (view: 'hotFolders' | 'settings', fake = standardBridge()) => showView(view, fake);

const status: StudioStatus = {
  ledger: LEDGER,
  schemaVersion: 3,
  instances: [
    { id: 'i-mac', host: 'mac-studio', pid: 101, version: '0.4.0', label: null, startedAt: '2026-11-25T09:00:00.000Z', heartbeatAt: '2026-11-25T10:00:00.000Z', alive: true, stopped: false, processed: 12, failed: 1, creditsSpent: 24, inFlight: 2, perMinute: 3.4 },
    { id: 'i-nas', host: 'nas', pid: 7, version: '0.4.0', label: null, startedAt: '2026-11-25T08:00:00.000Z', heartbeatAt: '2026-11-25T09:30:00.000Z', alive: false, stopped: false, processed: 5, failed: 0, creditsSpent: 10, inFlight: 1, perMinute: 0 },
    { id: 'i-old', host: 'laptop', pid: 9, version: '0.3.9', label: null, startedAt: '2026-11-24T08:00:00.000Z', heartbeatAt: '2026-11-24T18:00:00.000Z', alive: false, stopped: true, processed: 40, failed: 2, creditsSpent: 80, inFlight: 0, perMinute: 0 },
  ],
  claimsInFlight: [
    { folderKey: 'to-edit', relPath: 'day1/IMG_0001.jpg', state: 'accepted', owner: 'i-mac', executionId: 'ex-1', since: '2026-11-25T09:59:00.000Z' },
    { folderKey: 'to-edit', relPath: 'day1/IMG_0002.jpg', state: 'claimed', owner: 'i-nas', executionId: null, since: '2026-11-25T09:29:00.000Z' },
  ],
  folders: [{ folderKey: 'to-edit', budget: 100, creditsCommitted: 38, processed: 17, failed: 1 }],
};

describe('Settings › Shared studio ledger', () => {
  it('saves the URL as a setting, refusing one with a password, and shows the connection test', async () => {
    const fake = standardBridge({ 'studio:testConnection': ({ url }) => ({ ok: true, ledger: url, serverVersion: '16.4', message: 'connected to PostgreSQL 16.4; schema 3 of 3' }) });
    const { user } = await show('settings', fake);
    const section = await screen.findByRole('region', { name: 'Shared studio ledger' });
    expect(section).toHaveTextContent('Several machines on one hot folder: each photo is processed once, the budget is shared. Leave empty on a single machine.');
    const field = within(section).getByRole('textbox', { name: 'Ledger URL' });
    await user.type(field, 'postgres://studio:hunter2@nas.local/batchroom');
    await user.tab();
    expect(within(section).getByRole('alert')).toHaveTextContent(/no password in it/);
    expect(fake.callsTo('settings:update')).toEqual([]);

    await user.clear(field);
    await user.type(field, `${LEDGER}{Enter}`);
    await waitFor(() => expect(fake.callsTo('settings:update')).toEqual([{ patch: { studioLedgerUrl: LEDGER } }]));
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(await within(section).findByRole('status', { name: 'Connection test' })).toHaveTextContent('Connected: connected to PostgreSQL 16.4; schema 3 of 3');
    expect(fake.callsTo('studio:testConnection')).toEqual([{ url: LEDGER }]);

    await user.clear(field);
    await user.tab();
    await waitFor(() => expect(fake.callsTo('settings:update')).toContainEqual({ patch: { studioLedgerUrl: null } }));
  });

  it('says why a connection test failed', async () => {
    const fake = standardBridge({
      'settings:get': () => ({ settings: withLedger, warnings: [] }),
      'studio:testConnection': ({ url }) => ({ ok: false, ledger: url, serverVersion: null, message: `the studio ledger refused the login (${url}): check PGPASSWORD, ~/.pgpass or the password saved in the keychain` }),
    });
    const { user } = await show('settings', fake);
    const section = await screen.findByRole('region', { name: 'Shared studio ledger' });
    expect(within(section).getByRole('textbox', { name: 'Ledger URL' })).toHaveValue(LEDGER);
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(await within(section).findByRole('alert', { name: 'Connection test' })).toHaveTextContent('Not connected: the studio ledger refused the login');
  });

  it('sends the password to the keychain once, clears the field, never shows it, then tests the connection', async () => {
    const fake = standardBridge({
      'settings:get': () => ({ settings: withLedger, warnings: [] }),
      'studio:savePassword': ({ url }) => ({ ledger: url, shadowedBy: null }),
      'studio:testConnection': ({ url }) => ({ ok: true, ledger: url, serverVersion: '16.4', message: 'connected to PostgreSQL 16.4; schema 3 of 3' }),
    });
    const { user } = await show('settings', fake);
    const section = await screen.findByRole('region', { name: 'Shared studio ledger' });
    const password = within(section).getByLabelText('Ledger password');
    expect(password).toHaveAttribute('type', 'password');
    await user.type(password, 'studio-secret-42');
    await user.click(within(section).getByRole('button', { name: 'Save password' }));
    expect(await within(section).findByText(`Password saved in the system keychain for ${LEDGER}.`)).toBeInTheDocument();
    expect(fake.callsTo('studio:savePassword')).toEqual([{ url: LEDGER, password: 'studio-secret-42' }]);
    await waitFor(() => expect(fake.callsTo('studio:testConnection')).toEqual([{ url: LEDGER }]));
    expect(password).toHaveValue('');
    expect(document.body.innerHTML).not.toContain('studio-secret-42');
    expect(fake.callsTo('settings:update')).toEqual([]);
  });

  it('without a keychain, points to PGPASSWORD or ~/.pgpass', async () => {
    const fake = standardBridge({
      'settings:get': () => ({ settings: withLedger, warnings: [] }),
      'studio:savePassword': () => { throw new FakeFailure('keychain_unavailable', 'The system keychain is not available, so the studio ledger password cannot be kept there.'); },
    });
    const { user } = await show('settings', fake);
    const section = await screen.findByRole('region', { name: 'Shared studio ledger' });
    await user.type(within(section).getByLabelText('Ledger password'), 'pw');
    await user.click(within(section).getByRole('button', { name: 'Save password' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('cannot be kept there');
    expect(fake.callsTo('studio:testConnection')).toEqual([]);
  });
});

describe('hot folders in a studio', () => {
  it('the editor asks for the studio folder name only when a ledger is set, and saves it trimmed', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({
      'settings:get': () => ({ settings: withLedger, warnings: [] }),
      'hotFolders:list': () => [hotFolder()],
      'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); },
      'studio:status': () => status,
    });
    const { user } = await show('hotFolders', fake);
    await user.click(await screen.findByRole('button', { name: 'Edit incoming' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit hot folder' });
    const name = within(dialog).getByRole('textbox', { name: 'Studio folder name' });
    expect(name).toHaveAttribute('placeholder', 'incoming');
    await user.type(name, '  to-edit ');
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ id: 'h1', studioFolder: 'to-edit' });
  });

  it('no ledger: no studio name field, and an untouched folder keeps studioFolder null', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({
      'hotFolders:list': () => [hotFolder()],
      'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); },
    });
    const { user } = await show('hotFolders', fake);
    await user.click(await screen.findByRole('button', { name: 'Edit incoming' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit hot folder' });
    expect(within(dialog).queryByRole('textbox', { name: 'Studio folder name' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.studioFolder).toBeNull();
    expect(screen.queryByRole('region', { name: 'Studio' })).not.toBeInTheDocument();
    expect(fake.callsTo('studio:status')).toEqual([]);
  });

  it('cards show the Studio chip when claiming, and one warning when the ledger is unreachable', async () => {
    const fake = standardBridge({
      'hotFolders:list': () => [
        hotFolder({ state: 'armed', studio: 'connected' }, { enabled: true }),
        hotFolder({ id: 'h2', state: 'armed', studio: 'unreachable', reason: 'studio ledger unreachable — claiming paused until it answers again' }, { id: 'h2', path: '/watch/second', enabled: true }),
      ],
    });
    await show('hotFolders', fake);
    const first = await screen.findByRole('article', { name: 'Hot folder incoming' });
    expect(within(first).getByText('Studio')).toHaveClass('badge');
    expect(within(first).queryByText(/unreachable/)).not.toBeInTheDocument();
    const second = screen.getByRole('article', { name: 'Hot folder second' });
    expect(within(second).queryByText('Studio')).not.toBeInTheDocument();
    expect(within(second).getAllByText(/unreachable/)).toHaveLength(1);
    expect(within(second).getByRole('status')).toHaveTextContent('Studio ledger unreachable — claiming paused');
  });
});

describe('Studio panel', () => {
  it('lists instances, claims in flight with their owner host, and shared budgets; refreshes every 5 s while shown', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fake = standardBridge({ 'settings:get': () => ({ settings: withLedger, warnings: [] }), 'studio:status': () => status });
    const { user, store } = await show('hotFolders', fake);
    const panel = await screen.findByRole('region', { name: 'Studio' });
    const instances = await within(panel).findByRole('table', { name: 'Instances' });
    const rows = within(instances).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['mac-studio', '0.4.0', 'Alive', expect.any(String), '2', '12', '1', '24', '3.4'],
      ['nas', '0.4.0', 'Lease expired', expect.any(String), '1', '5', '0', '10', '0'],
      ['laptop', '0.3.9', 'Stopped', expect.any(String), '0', '40', '2', '80', '0'],
    ]);
    const claims = within(panel).getByRole('table', { name: 'Claims in flight' });
    expect(within(claims).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').slice(0, 3).map((c) => c.textContent))).toEqual([
      ['to-edit/day1/IMG_0001.jpg', 'At the service', 'mac-studio'],
      ['to-edit/day1/IMG_0002.jpg', 'Claimed', 'nas (lease expired)'],
    ]);
    expect(within(panel).getByRole('table', { name: 'Shared budgets' })).toHaveTextContent('to-edit38100 (62 left)171');
    expect(fake.callsTo('studio:status')).toHaveLength(1);

    await act(async () => { vi.advanceTimersByTime(STUDIO_REFRESH_MS); });
    await waitFor(() => expect(fake.callsTo('studio:status')).toHaveLength(2));
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(fake.callsTo('studio:status')).toHaveLength(3));

    // A hidden window does not poll the database; another screen stops the timer altogether.
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      await act(async () => { vi.advanceTimersByTime(STUDIO_REFRESH_MS * 2); });
      expect(fake.callsTo('studio:status')).toHaveLength(3);
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
    act(() => store.getState().setView('settings'));
    await act(async () => { vi.advanceTimersByTime(STUDIO_REFRESH_MS * 2); });
    expect(fake.callsTo('studio:status')).toHaveLength(3);
  });

  it('says the ledger is unreachable in main\'s words and keeps the last status shown', async () => {
    const fake = standardBridge({ 'settings:get': () => ({ settings: withLedger, warnings: [] }), 'studio:status': () => status });
    const { user } = await show('hotFolders', fake);
    const panel = await screen.findByRole('region', { name: 'Studio' });
    await within(panel).findByRole('table', { name: 'Instances' });
    fake.handle('studio:status', () => { throw new FakeFailure('unauthorized', `the studio ledger refused the login (${LEDGER}): check PGPASSWORD, ~/.pgpass or the password saved in the keychain`); });
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('the studio ledger refused the login');
    expect(alert).not.toHaveTextContent('API key');
    expect(within(panel).getByRole('table', { name: 'Instances' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Showing what the ledger said at');
  });
});
