import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, counts, settings, standardBridge } from './helpers/fixtures';
import { renderApp, showView } from './helpers/render-app';

// Issue 31 #18: what the app says where choices are made — the pixel size behind "Default", and which photos each
// queued batch holds (several CLI runs of one workflow looked identical).

afterEach(cleanup);

describe('the size choice', () => {
  it('says what "Default" is in pixels, from the service sizes in shared/', async () => {
    const user = userEvent.setup();
    renderApp(standardBridge());
    await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
    const form = await screen.findByRole('form', { name: 'Caption & Watermark settings' });
    expect(within(form).getByText('Default = 1,024 px · 1K = 1,024 px · 2K = 2,048 px on the long edge')).toBeInTheDocument();
  });
});

describe('the batch list', () => {
  it('shows each batch’s folder, so two runs of one workflow can be told apart', async () => {
    const fake = standardBridge({
      'batches:list': () => [
        batch({ id: 'b1', state: 'completed', counts: counts({ saved: 3 }), progress: 1, outputFolder: '/Users/ann/Pictures/shoot-a/Batchroom' }),
        batch({ id: 'b2', state: 'completed', counts: counts({ saved: 3 }), progress: 1, outputFolder: '/Users/ann/Pictures/shoot-b/Batchroom' }),
      ],
      'batches:items': () => ({ total: 0, items: [] }),
    });
    await showView('queue', fake);
    const list = await screen.findByRole('region', { name: 'Batches' });
    const cards = await within(list).findAllByRole('button', { name: /^Color Grade/ });
    const texts = cards.map((c) => c.textContent);
    expect(texts).toContainEqual(expect.stringContaining('…/shoot-a/Batchroom'));
    expect(texts).toContainEqual(expect.stringContaining('…/shoot-b/Batchroom'));
    expect(within(list).getByText('…/shoot-a/Batchroom')).toHaveAttribute('title', 'Results in /Users/ann/Pictures/shoot-a/Batchroom');
  });
});

describe('the service URL setting', () => {
  it('shows "none set" and the sandbox instead of the reserved .example address, and a chosen address as it is', async () => {
    await showView('settings', standardBridge());
    const field = await screen.findByRole('textbox', { name: 'Service URL' });
    expect(field).toHaveValue('');
    expect(field).toHaveAttribute('placeholder', expect.stringContaining('https://…/api/v1'));
    expect(screen.getByText(/None set: Batchroom runs against its built-in sandbox/)).toBeInTheDocument();
    cleanup();

    await showView('settings', standardBridge({ 'settings:get': () => ({ settings: { ...settings, serviceUrl: 'https://api.provider.test/api/v1' }, warnings: [] }) }));
    expect(await screen.findByRole('textbox', { name: 'Service URL' })).toHaveValue('https://api.provider.test/api/v1');
    expect(screen.queryByText(/None set/)).toBeNull();
  });
});
