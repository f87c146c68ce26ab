import type { MenuItemConstructorOptions } from 'electron';
import type { PreventableEvent, TrayPort } from './ports';

export interface TrayResidencyOptions {
  appName: string;
  platform: string;
  createTray(): TrayPort;
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
  /** How many hot folders are armed right now (0: nothing keeps the app alive without its window). */
  armedCount(): number;
  showWindow(): void;
  hideWindow(): void;
  isWindowVisible(): boolean;
  quit(): void;
  /** Said once, the first time the window closes into the tray, so the user knows the app is still running. */
  notify?(title: string, body: string): void;
}

export interface TrayResidency {
  /** The window's `close` handler: while hot folders are armed, closing hides the window instead. */
  onWindowClose(event: PreventableEvent): void;
  /** Call whenever the armed hot folders change. */
  refresh(): void;
  /** A line the tooltip adds after the hot folders, e.g. "Can't reach the service — retrying…" (null: none). */
  setStatus(status: string | null): void;
  /** Quitting for real (menu, tray "Quit", OS shutdown): closing must not be intercepted any more. */
  setQuitting(): void;
  readonly hasTray: boolean;
}

/**
 * While hot folders are armed, Batchroom lives in the tray / menu bar: closing the window hides it and the
 * watchers keep working. When the last folder is disarmed the tray goes away, and a hidden app quits (on macOS,
 * where apps outlive their windows, it stays in the Dock as usual).
 */
export function createTrayResidency(options: TrayResidencyOptions): TrayResidency {
  let tray: TrayPort | null = null;
  let quitting = false;
  let toldUser = false;
  let status: string | null = null;
  let lastArmed = 0;

  const menuFor = (armed: number): MenuItemConstructorOptions[] => [
    { label: `Open ${options.appName}`, click: () => options.showWindow() },
    { label: `Watching ${armed} hot folder${armed === 1 ? '' : 's'}`, enabled: false },
    { type: 'separator' },
    { label: `Quit ${options.appName}`, click: () => options.quit() },
  ];

  const tooltip = (armed: number) =>
    `${options.appName}: watching ${armed} hot folder${armed === 1 ? '' : 's'}${status ? `\n${status}` : ''}`;

  const ensureTray = (armed: number) => {
    lastArmed = armed;
    if (!tray || tray.isDestroyed()) {
      tray = options.createTray();
      tray.on('click', () => options.showWindow());
    }
    tray.setToolTip(tooltip(armed));
    tray.setContextMenu(options.buildMenu(menuFor(armed)));
  };

  const dropTray = () => {
    if (tray && !tray.isDestroyed()) tray.destroy();
    tray = null;
  };

  return {
    onWindowClose(event) {
      if (quitting) return;
      const armed = options.armedCount();
      if (armed === 0) return;
      event.preventDefault();
      options.hideWindow();
      ensureTray(armed);
      if (!toldUser) {
        toldUser = true;
        options.notify?.(
          `${options.appName} is still watching`,
          `${armed} hot folder${armed === 1 ? ' is' : 's are'} armed. Use the ${options.platform === 'darwin' ? 'menu bar' : 'tray'} icon to open or quit.`,
        );
      }
    },
    refresh() {
      if (quitting) return;
      const armed = options.armedCount();
      if (armed > 0) {
        ensureTray(armed);
        return;
      }
      dropTray();
      if (!options.isWindowVisible() && options.platform !== 'darwin') options.quit();
    },
    setStatus(next) {
      if (next === status) return;
      status = next;
      if (tray && !tray.isDestroyed()) tray.setToolTip(tooltip(lastArmed));
    },
    setQuitting() {
      quitting = true;
      dropTray();
    },
    get hasTray() {
      return tray !== null && !tray.isDestroyed();
    },
  };
}
