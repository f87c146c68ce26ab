import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/settings/schema';
import { batch, counts, hotFolder, item, settings, standardBridge } from './helpers/fixtures';
import type { FakeHandlers } from './helpers/fake-bridge';
import { renderApp } from './helpers/render-app';
import { jobReport } from './helpers/reports';

// Queue, Review, History and Hot folders, and the notices the store makes, in the language of the setting (issue 33
// #2): words from the catalogs, counts as the language counts them, numbers and credits written its way.

afterEach(cleanup);

async function inLanguage(language: Settings['language'], view: 'queue' | 'review' | 'history' | 'hotFolders', extra: FakeHandlers = {}) {
  const fake = standardBridge({ 'settings:get': () => ({ settings: { ...settings, language }, warnings: [] }), ...extra });
  const app = renderApp(fake);
  await waitFor(() => expect(app.store.getState().settings?.language).toBe(language));
  act(() => app.store.getState().setView(view));
  return { fake, ...app };
}

const finishedWithAFailure = {
  'batches:list': () => [batch({ state: 'completed', total: 3, counts: counts({ saved: 2, failed: 1 }), progress: 1, creditsSpent: 2 })],
  'batches:items': () => ({ total: 3, items: [item(0, 'failed'), item(1, 'saved'), item(2, 'saved')] }),
};

describe('my screens in other languages', () => {
  it('words a batch, its counts and its retry question in German', async () => {
    const user = userEvent.setup({ delay: null });
    await inLanguage('de', 'queue', finishedWithAFailure);
    const panel = await screen.findByRole('region', { name: 'Stapel Color Grade' });
    expect(within(panel).getAllByText('Fertig, mit Problemen')).not.toHaveLength(0);
    expect(within(panel).getByText('2 von 3 Fotos gesichert · 1 fehlgeschlagen')).toBeInTheDocument();
    expect(await within(panel).findByRole('row', { name: 'IMG_0000.jpg: Fehlgeschlagen' })).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Fehlgeschlagene wiederholen (1)' }));
    const dialog = await screen.findByRole('dialog', { name: '1 Foto erneut versuchen?' });
    expect(within(dialog).getByRole('button', { name: 'Erneut versuchen (bis zu 1 Credit)' })).toBeInTheDocument();
  });

  it('counts without plurals in Japanese', async () => {
    await inLanguage('ja', 'queue', finishedWithAFailure);
    const panel = await screen.findByRole('region', { name: 'バッチ Color Grade' });
    expect(within(panel).getByText('3 枚中 2 枚保存 · 1 枚失敗')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: '失敗分を再試行（1）' })).toBeInTheDocument();
  });

  it('writes the History table and its credits the German way', async () => {
    await inLanguage('de', 'history', { 'reports:byGroup': (q) => jobReport(q.by) });
    const table = await screen.findByRole('table', { name: 'Credits pro Auftrag' });
    const head = within(table).getAllByRole('columnheader').map((c) => c.textContent);
    expect(head).toEqual(['Auftrag', 'Stapel', 'Fotos gesichert', 'Fehlgeschlagen', 'Berechnet, kein Ergebnis', 'Credits']);
    expect(screen.getByTestId('history-balance')).toHaveTextContent(/Kontostand beim Dienst 1\.000 Credits am .+ → 910 Credits am/);
  });

  it('says the empty Review and Hot folders screens in German, and a hot folder card in French', async () => {
    await inLanguage('de', 'review');
    expect(await screen.findByText('Noch nichts zu sichten')).toBeInTheDocument();
    cleanup();
    await inLanguage('de', 'hotFolders', { 'hotFolders:list': () => [] });
    expect(await screen.findByText('Noch keine überwachten Ordner')).toBeInTheDocument();
    cleanup();
    await inLanguage('fr', 'hotFolders', { 'hotFolders:list': () => [hotFolder({ state: 'armed', processed: 1234 }, { enabled: true })] });
    const card = await screen.findByRole('article', { name: 'Dossier surveillé incoming' });
    expect(within(card).getByText('Surveillé')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Simulation de incoming' })).toBeInTheDocument();
    // French groups thousands with a narrow space, whatever this machine's locale.
    expect(card.textContent).toContain(`Traitées${new Intl.NumberFormat('fr').format(1234)}`);
  });

  it('makes the store’s notices in the page language', async () => {
    const { store } = await inLanguage('es', 'review', finishedWithAFailure);
    await act(async () => { await store.getState().rerunRejected('b1', { texts: {} }); });
    expect(await screen.findByText('Nada que repetir: rechaza primero los resultados que quieras rehacer.')).toBeInTheDocument();
  });
});
