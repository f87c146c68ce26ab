import type { MenuItemConstructorOptions } from 'electron';
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

const VIEW_ITEMS: { view: AppView; label: string; key: string }[] = [
  { view: 'workflows', label: 'Workflows', key: '1' },
  { view: 'queue', label: 'Queue', key: '2' },
  { view: 'review', label: 'Review', key: '3' },
  { view: 'hotFolders', label: 'Hot Folders', key: '4' },
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
}): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const { actions } = options;
  const menu: MenuItemConstructorOptions[] = [];
  if (mac) {
    menu.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { label: 'Settings…', accelerator: 'Cmd+,', click: () => actions.navigate('settings') },
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
    label: 'File',
    submenu: [
      { label: 'Add Photos…', accelerator: 'CmdOrCtrl+O', click: () => actions.addPhotos() },
      { label: 'Add Folder…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.addFolder() },
      // Windows and Linux keep Settings in File, where their users look for it.
      ...(mac ? [] : [{ type: 'separator' }, { label: 'Settings…', accelerator: 'Ctrl+,', click: () => actions.navigate('settings') }] as MenuItemConstructorOptions[]),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  menu.push({
    label: 'Edit',
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
    label: 'View',
    submenu: [
      ...VIEW_ITEMS.map(({ view, label, key }) => ({ label, accelerator: `CmdOrCtrl+${key}`, click: () => actions.navigate(view) })),
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
      { label: 'Show Log Files', click: () => actions.showLogs() },
      { label: 'Show Data Folder', click: () => actions.showDataFolder() },
      { type: 'separator' },
      { label: 'Install Command-Line Tool…', click: () => actions.installCommandLineTool() },
      { label: 'Uninstall Command-Line Tool', click: () => actions.uninstallCommandLineTool() },
      ...(actions.reportProblem ? [{ type: 'separator' }, { label: 'Report a Problem…', click: actions.reportProblem }] as MenuItemConstructorOptions[] : []),
    ],
  });
  return menu;
}
