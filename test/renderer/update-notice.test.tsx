import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../shared/update/model';
import { settings, standardBridge } from './helpers/fixtures';
import { renderApp, showView } from './helpers/render-app';

// The renderer's side of auto-update: the "Restart to update" notice with the release notes, the wait while work is
// in flight, a refused download said plainly, and Settings › Updates (channel, stay on this version, the policy file).

afterEach(cleanup);

const status = (patch: Partial<UpdateStatus> = {}): UpdateStatus => ({
  state: 'up-to-date', currentVersion: '0.1.0', channel: 'stable', managedBy: 'settings', stayOnThisVersion: false,
  available: null, percent: null, message: null, lastCheckedAt: null, ...patch,
});
const release = { version: '0.2.0', releaseName: null, releaseNotes: 'Faster previews.', releaseDate: null };

describe('update notice', () => {
  it('offers "Restart to update" with the release notes once the update is ready, and asks main to install', async () => {
    const fake = standardBridge({
      'update:status': () => status({ state: 'waiting', available: release, message: 'Version 0.2.0 is ready; it installs when nothing is in flight (now a batch is running).' }),
      'update:install': () => status({ state: 'installing', available: release }),
    });
    renderApp(fake);
    expect(await screen.findByText('Version 0.2.0 is ready; it installs when nothing is in flight (now a batch is running).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restart to update' })).toBeNull();

    act(() => fake.emit('update:changed', status({ state: 'ready', available: release, message: 'Version 0.2.0 is ready. Restart to update.' })));
    const notice = (await screen.findByText('Batchroom 0.2.0 is ready to install.')).closest('.notice') as HTMLElement;
    expect(within(notice).getByText('Faster previews.')).toBeTruthy();
    within(notice).getByRole('button', { name: 'Restart to update' }).click();
    await waitFor(() => expect(fake.callsTo('update:install')).toHaveLength(1));
  });

  it('says a refused download plainly and shows nothing when there is nothing to act on', async () => {
    const fake = standardBridge({ 'update:status': () => status() });
    renderApp(fake);
    await waitFor(() => expect(fake.callsTo('update:status')).toHaveLength(1));
    expect(document.querySelector('.update-notice')).toBeNull();
    const refused = 'The download of version 0.2.0 did not match the release\'s checksum (sha512), so it was discarded and nothing was installed. It is tried again at the next check.';
    act(() => fake.emit('update:changed', status({ state: 'failed', available: release, message: refused })));
    expect((await screen.findByRole('alert')).textContent).toContain(refused);
  });
});

describe('Settings › Updates', () => {
  it('saves the channel and "Stay on this version", and checks on demand', async () => {
    const fake = standardBridge({
      'update:status': () => status(),
      'update:check': () => status({ state: 'up-to-date', message: '0.1.0 is the newest version on the stable channel.' }),
    });
    const { user } = await showView('settings', fake);
    const section = await screen.findByRole('region', { name: 'Updates' });
    await user.selectOptions(within(section).getByLabelText('Update channel'), 'beta');
    await user.click(within(section).getByLabelText('Stay on this version'));
    expect(fake.callsTo('settings:update')).toEqual([{ patch: { updateChannel: 'beta' } }, { patch: { updateStayOnThisVersion: true } }]);
    await user.click(within(section).getByRole('button', { name: 'Check for updates' }));
    expect(await within(section).findByText('0.1.0 is the newest version on the stable channel.')).toBeTruthy();
  });

  it('shows the policy file\'s choice and does not let it be changed here', async () => {
    const fake = standardBridge({ 'update:status': () => status({ state: 'pinned', managedBy: 'policy', stayOnThisVersion: true, channel: 'stable' }) });
    await showView('settings', fake);
    const section = await screen.findByRole('region', { name: 'Updates' });
    await within(section).findByText(/Your administrator manages updates/);
    const stay = within(section).getByLabelText('Stay on this version') as HTMLInputElement;
    expect(stay.checked).toBe(true);
    expect(stay.disabled).toBe(true);
    expect((within(section).getByLabelText('Update channel') as HTMLSelectElement).disabled).toBe(true);
  });
});

describe('the updater in German', () => {
  it('words the notice and Settings › Updates from the catalogs, the updater\'s own sentence left as main wrote it', async () => {
    let current = status({ state: 'ready', available: release, message: 'Version 0.2.0 is ready. Restart to update.' });
    const fake = standardBridge({
      'settings:get': () => ({ settings: { ...settings, language: 'de' }, warnings: [] }),
      'update:status': () => current,
    });
    const app = renderApp(fake);
    await waitFor(() => expect(app.store.getState().settings?.language).toBe('de'));
    const notice = (await screen.findByText('Batchroom 0.2.0 ist bereit zur Installation.')).closest('.notice') as HTMLElement;
    expect(within(notice).getByText('Neu in 0.2.0')).toBeTruthy();
    expect(within(notice).getByRole('button', { name: 'Neu starten und aktualisieren' })).toBeTruthy();
    expect(within(notice).getByRole('button', { name: 'Später' })).toBeTruthy();

    current = status({ state: 'downloading', percent: 42.4, message: 'Downloading version 0.2.0.' });
    act(() => fake.emit('update:changed', current));
    act(() => app.store.getState().setView('settings'));
    const section = await screen.findByRole('region', { name: 'Updates' });
    expect(await within(section).findByText(/^Wird geladen: 42\s%$/)).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Wird geprüft …' })).toBeTruthy();
    expect(within(section).getByLabelText('Bei dieser Version bleiben')).toBeTruthy();
    expect(within(section).getByRole('option', { name: 'Beta: neue Funktionen früher, noch mit Ecken und Kanten' })).toBeTruthy();
    expect(within(section).getByText('Downloading version 0.2.0.').getAttribute('data-from')).toBe('main');
  });
});
