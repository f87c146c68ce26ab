import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import { hotFolder, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

afterEach(cleanup);

// A hot folder's queue priority (issue 32 #5): set in its editor, saved with the folder (its batches carry it).

describe('hot folder priority', () => {
  it('is saved with the folder; an out-of-range value is said and not saved', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({ 'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); } });
    const { user } = await showView('hotFolders', fake);
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/in');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'cool');
    const priority = within(dialog).getByRole('spinbutton', { name: 'Queue priority' });
    expect(priority).toHaveValue(0);
    await user.clear(priority);
    await user.type(priority, '150');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A whole number from -100 to 100.');
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    expect(saved).toHaveLength(0);
    await user.clear(priority);
    await user.type(priority, '20');
    expect(within(dialog).queryByText('A whole number from -100 to 100.')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ path: '/watch/in', workflowId: 'color-grade', priority: 20 });
  });
});
