import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/settings/schema';
import { settings, standardBridge } from './helpers/fixtures';
import { renderApp, showView } from './helpers/render-app';

// The whole app changes language from Settings (issue 33 #2): the picker saves `language`, the page remounts in it —
// the sidebar, the header's credits written the German way, the screen — and text made outside React (lib's
// validation, labels) follows too. English stays what a test with untouched settings sees.

afterEach(cleanup);

describe('the language setting', () => {
  it('switches the app to German from the picker, numbers included', async () => {
    let saved: Settings = settings;
    const fake = standardBridge({
      'settings:get': () => ({ settings: saved, warnings: [] }),
      'settings:update': ({ patch }) => (saved = { ...saved, ...patch } as Settings),
      'balance:get': () => ({ apiCredits: 1234.5, webCredits: { total: 0, breakdown: [] } }),
    });
    const { user } = await showView('settings', fake);
    expect(screen.getByRole('navigation', { name: 'Sections' })).toHaveTextContent('Queue');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    expect(fake.callsTo('settings:update')[0]).toEqual({ patch: { language: 'de' } });
    const nav = await screen.findByRole('navigation', { name: 'Bereiche' });
    expect(within(nav).getByRole('button', { name: /Warteschlange/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /^Guthaben: 1\.234,5 Credits/ })).toBeInTheDocument());
    expect(document.documentElement.lang).toBe('de');
  });

  it('shows Japanese when the setting says so, and English for "system" on an English machine', async () => {
    const fake = standardBridge({ 'settings:get': () => ({ settings: { ...settings, language: 'ja' }, warnings: [] }) });
    const app = renderApp(fake);
    expect(await screen.findByRole('navigation', { name: 'セクション' })).toHaveTextContent('キュー');
    act(() => app.store.getState().setView('workflows'));
    expect(await screen.findByRole('searchbox', { name: 'ワークフローを検索' })).toBeInTheDocument();
    cleanup();
    renderApp(standardBridge());
    expect(await screen.findByRole('navigation', { name: 'Sections' })).toHaveTextContent('Queue');
  });

  it('writes messages made outside React (form validation in lib) in the page language', async () => {
    const fake = standardBridge({ 'settings:get': () => ({ settings: { ...settings, language: 'fr' }, warnings: [] }) });
    const app = renderApp(fake);
    await screen.findByRole('navigation', { name: 'Sections' }); // French "Sections" is the same word
    await waitFor(() => expect(document.documentElement.lang).toBe('fr'));
    const user = userEvent.setup();
    act(() => app.store.getState().setView('workflows'));
    await user.click(await screen.findByRole('button', { name: /^Caption & Watermark/ }));
    await user.type(await screen.findByRole('textbox', { name: 'Ajouter des photos par chemin' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Vérifier le lot…' }));
    expect(await screen.findAllByText('« Caption » est obligatoire.')).not.toHaveLength(0);
  });
});
