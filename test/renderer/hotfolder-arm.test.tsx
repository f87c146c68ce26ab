import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import { hotFolder, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Issue 31 #18: a new hot folder was saved Off behind a switch with no visible label. The editor offers "Save and
// arm", and the card's switch says what it does.

afterEach(cleanup);

describe('arming a hot folder', () => {
  it('"Save and arm" saves the new folder armed', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({ 'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({ state: 'armed' }, config as HotFolderConfig); } });
    const { user } = await showView('hotFolders', fake);
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/in');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'cool');
    await user.click(within(dialog).getByRole('button', { name: 'Save and arm' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ path: '/watch/in', enabled: true });
  });

  it('labels the card’s switch with a visible word that its accessible name contains', async () => {
    await showView('hotFolders', standardBridge({ 'hotFolders:list': () => [hotFolder()] }));
    const card = await screen.findByRole('article', { name: 'Hot folder incoming' });
    const toggle = within(card).getByRole('switch', { name: 'Watch incoming' });
    expect(toggle.closest('label')).toHaveTextContent('Watch');
  });
});
