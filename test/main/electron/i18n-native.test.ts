import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../../shared/i18n';
import { createAttention } from '../../../main/electron/attention';
import { dialogOriginConsent, type ConsentBox } from '../../../main/electron/consent-dialog';
import { appMenuTemplate, type MenuActions } from '../../../main/electron/menu';
import type { HotFolderState } from '../../../shared/hotfolders/model';

// Native menus, the consent dialog's button and the notifications main says itself speak the app's language
// (issue 33 #2), from the same catalogs as the renderer (shared/i18n/locales/<lang>/native.json).

const actions: MenuActions = {
  addPhotos() {}, addFolder() {}, showLogs() {}, showDataFolder() {}, installCommandLineTool() {}, uninstallCommandLineTool() {},
  reportProblem() {}, navigate() {},
};

const labels = (items: MenuItemConstructorOptions[]): string[] =>
  items.flatMap((item) => [item.label ?? '', ...(Array.isArray(item.submenu) ? labels(item.submenu) : [])]).filter(Boolean);

describe('native text in the app language', () => {
  it('labels the menus in German and Japanese, English by default', () => {
    const german = labels(appMenuTemplate({ platform: 'win32', appName: 'Batchroom', isDev: false, actions, t: translatorFor('de').ns('native') }));
    expect(german).toEqual(expect.arrayContaining(['Ablage', 'Fotos hinzufügen…', 'Einstellungen…', 'Warteschlange', 'Problem melden…']));
    expect(german).not.toContain('File');
    const japanese = labels(appMenuTemplate({ platform: 'darwin', appName: 'Batchroom', isDev: false, actions, t: translatorFor('ja').ns('native') }));
    expect(japanese).toEqual(expect.arrayContaining(['ファイル', '写真を追加…', '設定…']));
    expect(labels(appMenuTemplate({ platform: 'win32', appName: 'Batchroom', isDev: false, actions }))).toEqual(expect.arrayContaining(['File', 'Add Photos…']));
  });

  it('names the consent dialog’s safe answer in the app language', async () => {
    const boxes: ConsentBox[] = [];
    const consent = dialogOriginConsent(async (box) => (boxes.push(box), { response: 0 }), () => translatorFor('fr').ns('native'));
    await consent.confirm({ kind: 'change-service', from: 'https://a.example', to: 'https://b.example' });
    expect(boxes[0]!.buttons[0]).toBe('Annuler');
  });

  it('says low balance and an unavailable hot folder in the app language, with locale numbers', () => {
    const said: string[] = [];
    const attention = createAttention({
      setProgress() {}, notify: (title, body) => void said.push(`${title} | ${body}`), notifyOpening() {},
      isWindowFocused: () => true, lowBalanceThreshold: () => 2000, translator: () => translatorFor('de'),
    });
    attention.handle('balance:changed', { apiCredits: 1234.5 } as never);
    const folder = (state: string, reason: string | null) => ({ config: { id: 'f1', path: '/shoots/in' }, status: { state, reason } }) as unknown as HotFolderState;
    attention.handle('hotFolders:changed', [folder('watching', null)]);
    attention.handle('hotFolders:changed', [folder('unavailable', null)]);
    expect(said).toEqual([
      'Guthaben knapp | Noch 1.234,5 API-Credits (Warnung unter 2.000).',
      'Überwachter Ordner nicht verfügbar | /shoots/in: der Ordner ist nicht lesbar.',
    ]);
  });
});
