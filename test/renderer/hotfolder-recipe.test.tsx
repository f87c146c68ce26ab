import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HotFolderConfig } from '../../shared/hotfolders/model';
import { makeRecipe } from '../../shared/recipes/recipe';
import { hotFolder, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

// Issue 32 #2: a hot folder runs a recipe — the editor picks one; main sends the recipe as saved.

afterEach(cleanup);

const recipe = makeRecipe({
  name: 'Client A', workflowId: 'color-grade', parameters: { texts: { look: 'cool' } },
  deliverables: [{ format: 'png', namingTemplate: '{name}_a{ext}', folder: 'full' }, { format: 'webp', folder: 'thumbs' }],
});

describe('a hot folder with a recipe', () => {
  it('picking a recipe saves the folder with it, its workflow and deliverable 1\'s settings', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({
      'recipes:list': () => ({ recipes: [recipe], problems: [] }),
      'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); },
    });
    const { user } = await showView('hotFolders', fake);
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/in');
    const picker = within(dialog).getByRole('combobox', { name: 'Recipe' });
    await within(picker).findByRole('option', { name: 'Client A (color-grade, 2 files per photo)' });
    await user.selectOptions(picker, 'Client A');
    expect(within(dialog).getByRole('combobox', { name: 'Workflow' })).toHaveValue('color-grade');
    expect(within(dialog).getByText(/all its deliverables and its budget per photo/)).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /Look/ })).toHaveValue('cool'));
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ path: '/watch/in', recipe: 'Client A', workflowId: 'color-grade', outputFormat: 'png', namingTemplate: '{name}_a{ext}', parameters: { texts: { look: 'cool' } } });
  });

  it('a folder without a recipe saves none', async () => {
    const saved: HotFolderConfig[] = [];
    const fake = standardBridge({
      'recipes:list': () => ({ recipes: [recipe], problems: [] }),
      'hotFolders:save': (config) => { saved.push(config as HotFolderConfig); return hotFolder({}, config as HotFolderConfig); },
    });
    const { user } = await showView('hotFolders', fake);
    await user.click(within(await screen.findByRole('region', { name: 'No hot folders yet' })).getByRole('button', { name: 'Add hot folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New hot folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder to watch' }), '/watch/in');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Workflow' }), 'color-grade');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Look/ }), 'warm');
    await user.click(within(dialog).getByRole('button', { name: 'Save hot folder' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ recipe: null, workflowId: 'color-grade' });
  });
});
