import type { MenuItemConstructorOptions } from 'electron';
import { translatorFor, type KeyOf, type TFunction } from '../../shared/i18n';
import type { AppView } from '../../shared/ipc/channels/files';

export interface MenuActions {
  /** File ▸ Add Photos…: pick files and hand them to the renderer as if they had been dropped. */
  addPhotos(): void;
  addFolder(): void;
  showLogs(): void;
  showDataFolder(): void;
  /** Help ▸ Install Command-Line Tool: `batchroom` on the PATH, starting this app in console mode. */
  installCommandLineTool(): void;
  /** Help ▸ Uninstall Command-Line Tool: removes only what Install wrote. */
  uninstallCommandLineTool(): void;
  /** Help ▸ Report a Problem…: shows the newest crash report (main/electron/crash-reports.ts) to read and send. */
  reportProblem?(): void;
  /** Show one of the renderer's views (Settings…, and the view shortcuts). */
  navigate(view: AppView): void;
}

const VIEW_ITEMS: { view: AppView; label: KeyOf<'native'>; key: string }[] = [
  { view: 'workflows', label: 'menu.workflows', key: '1' },
  { view: 'queue', label: 'menu.queue', key: '2' },
  { view: 'review', label: 'menu.review', key: '3' },
  { view: 'hotFolders', label: 'menu.hotFolders', key: '4' },
];

/**
 * The usual menus with the usual shortcuts: standard roles do the work (and get localised, platform-correct
 * accelerators); only Batchroom's own items carry explicit ones. Developer tools only in development builds.
 */
export function appMenuTemplate(options: {
  platform: string;
  appName: string;
  isDev: boolean;
  actions: MenuActions;
  /** Batchroom's own labels in the app's language (shared/i18n `native`); English when not given. Roles localise themselves. */
  t?: TFunction<'native'>;
}): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const t = options.t ?? translatorFor('en').ns('native');
  const { actions } = options;
  const menu: MenuItemConstructorOptions[] = [];
  if (mac) {
    menu.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { label: t('menu.settings'), accelerator: 'Cmd+,', click: () => actions.navigate('settings') },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  menu.push({
    label: t('menu.file'),
    submenu: [
      { label: t('menu.addPhotos'), accelerator: 'CmdOrCtrl+O', click: () => actions.addPhotos() },
      { label: t('menu.addFolder'), accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.addFolder() },
      // Windows and Linux keep Settings in File, where their users look for it.
      ...(mac ? [] : [{ type: 'separator' }, { label: t('menu.settings'), accelerator: 'Ctrl+,', click: () => actions.navigate('settings') }] as MenuItemConstructorOptions[]),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  menu.push({
    label: t('menu.edit'),
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      { role: 'selectAll' },
    ],
  });
  menu.push({
    label: t('menu.view'),
    submenu: [
      ...VIEW_ITEMS.map(({ view, label, key }) => ({ label: t(label), accelerator: `CmdOrCtrl+${key}`, click: () => actions.navigate(view) })),
      { type: 'separator' },
      ...(options.isDev ? [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  menu.push({
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  });
  menu.push({
    role: 'help',
    submenu: [
      { label: t('menu.showLogs'), click: () => actions.showLogs() },
      { label: t('menu.showData'), click: () => actions.showDataFolder() },
      { type: 'separator' },
      { label: t('menu.installCli'), click: () => actions.installCommandLineTool() },
      { label: t('menu.uninstallCli'), click: () => actions.uninstallCommandLineTool() },
      ...(actions.reportProblem ? [{ type: 'separator' }, { label: t('menu.reportProblem'), click: actions.reportProblem }] as MenuItemConstructorOptions[] : []),
    ],
  });
  return menu;
}
