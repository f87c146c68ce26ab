import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import { APP_NAME } from '../../shared/app-info';
import type { Core, CoreOptions, HostCapabilities } from '../core/app/types';
import type { Logger } from '../core/log';
import { createAttention } from './attention';
import { createAppProtocolHandler } from './app-protocol';
import { dialogOriginConsent, type ConsentBox } from './consent-dialog';
import { APP_ENTRY_URL, APP_SCHEME, MEDIA_SCHEME } from './constants';
import { forwardCoreEvents } from './event-forwarding';
import type { IpcWrapperOptions } from './ipc-main';
import { createMediaProtocolHandler, createElectronMediaRegistry } from './media-protocol';
import { installAppMenu } from './app-menu-install';
import { createElectronHost, type OpenDialogRequest } from './native-host';
import { claimSingleInstance, createOpenedPathsRelay, pathsFromArgv } from './open-paths';
import type { PreventableEvent, ProtocolPort, Rectangle, SessionPort, TrayPort, WebContentsPort, WindowPort } from './ports';
import { denyAllPermissions, hardenWebContents, isSafeExternalUrl, secureWindowOptions } from './security';
import { createTrayResidency } from './tray';
import type { BatchProgressEvent } from '../../shared/engine/model';
import { unreachableMessage } from '../../shared/engine/outage-text';
import { resolveLanguage, translatorFor, type LanguageSetting } from '../../shared/i18n';
import { installGracefulQuit, type GracefulQuit } from './graceful-quit';
import { loadWindowState, saveWindowState, trackWindowState } from './window-state';

type Theme = 'system' | 'light' | 'dark';

export interface AppPort {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  whenReady(): Promise<unknown>;
  on(event: 'second-instance', listener: (event: PreventableEvent, argv: string[], workingDirectory: string) => void): unknown;
  on(event: 'open-file', listener: (event: PreventableEvent, path: string) => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'window-all-closed' | 'activate', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsPort) => void): unknown;
}

/** Everything the desktop app needs from Electron, the core and the file system, injected (entry.ts wires it). */
export interface ElectronAppDeps<W extends WindowPort = WindowPort, M = unknown> {
  app: AppPort;
  platform: string;
  isDev: boolean;
  /** The OS's preferred languages, best first (app.getPreferredSystemLanguages()): the `system` language setting. */
  systemLanguages?: () => string[];
  argv: readonly string[];
  cwd: string;
  /** Paths that are the app itself, never documents (execPath, app path). */
  selfPaths: readonly string[];
  paths: { rendererRoot: string; preload: string; windowIcon?: string; userData: string; logs: string; stateDir: string };
  protocol: ProtocolPort;
  session: SessionPort;
  createWindow(options: BrowserWindowConstructorOptions): W;
  createTray(): TrayPort;
  buildMenu(template: MenuItemConstructorOptions[]): M;
  setApplicationMenu(menu: M): void;
  theme: { set(theme: Theme): void; isDark(): boolean };
  notify(title: string, body: string, onClick: () => void): void;
  openExternal(url: string): void;
  showItemInFolder(path: string): void;
  openPath(path: string): Promise<string>;
  showOpenDialog(window: W | null, request: OpenDialogRequest): Promise<{ canceled: boolean; filePaths: string[] }>;
  startDrag(window: W, path: string): void;
  workAreas(): Rectangle[];
  showErrorBox(title: string, message: string): void;
  /** An informational message box (the result of Install Command-Line Tool). */
  showMessage(title: string, message: string): void;
  /** A modal question box on the window (dialog.showMessageBox): the origin-change confirmation (consent-dialog.ts). */
  showMessageBox(window: W | null, box: ConsentBox): Promise<{ response: number }>;
  /** How a launcher starts this app: the executable, and the app folder when unpackaged (core/app/cli-install.ts). */
  appCommand: readonly string[];
  /** Help ▸ Report a Problem… (crash-reports.ts); absent, the menu item says there is no report. */
  reportProblem?(): void;
  installIpc(options: IpcWrapperOptions): () => void;
  createCore(options: CoreOptions): Core | Promise<Core>;
  logger: Logger;
  env: Record<string, string | undefined>;
  quitTimeoutMs?: number;
}

export interface RunningApp<W extends WindowPort = WindowPort> {
  core: Core;
  host: HostCapabilities;
  window(): W | null;
  quit: GracefulQuit;
}

/**
 * Starts the desktop app: single-instance lock, protocols, the hardened window, the IPC wrapper, event forwarding,
 * tray residency, native signals and the graceful quit. Resolves to null when another instance owns the lock.
 */
export async function startElectronApp<W extends WindowPort, M>(deps: ElectronAppDeps<W, M>): Promise<RunningApp<W> | null> {
  const log = deps.logger.child('electron');
  const { app } = deps;
  let win: W | null = null;
  let core: Core | null = null;
  const trusted = new Set<number>();
  const relay = createOpenedPathsRelay((paths) => core?.emit('files:opened', { paths }));

  let ready = false;
  const showWindow = () => {
    // open-file can arrive before the app is ready; the first window opens after `whenReady` anyway.
    if (!ready) return;
    if (!win || win.isDestroyed()) return void openWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  if (!claimSingleInstance(app, { focus: () => showWindow(), relay, ignore: deps.selfPaths })) return null;
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, {
      openExternal: (url) => isSafeExternalUrl(url) && deps.openExternal(url),
      onBlocked: (what, url) => log.warn(`blocked ${what}`, { url: url.slice(0, 200) }),
    }),
  );
  const firstLaunchPaths = pathsFromArgv(deps.argv, deps.cwd, { ignore: deps.selfPaths });
  if (firstLaunchPaths.length > 0) relay.push(firstLaunchPaths);

  await app.whenReady();
  const media = createElectronMediaRegistry();
  deps.protocol.handle(APP_SCHEME, createAppProtocolHandler(deps.paths.rendererRoot));
  deps.protocol.handle(MEDIA_SCHEME, createMediaProtocolHandler(media));
  denyAllPermissions(deps.session, (permission) => log.info('denied permission', { permission }));

  const host = createElectronHost({
    platform: deps.platform,
    media,
    showOpenDialog: (request) => deps.showOpenDialog(win && !win.isDestroyed() ? win : null, request),
    showItemInFolder: deps.showItemInFolder,
    openPath: deps.openPath,
    startDrag: (path) => {
      if (!win || win.isDestroyed()) return false;
      deps.startDrag(win, path);
      return true;
    },
  });

  // The language of menus, dialogs and notifications: the setting, else the OS's (shared/i18n, docs/i18n.md).
  let language: LanguageSetting | undefined;
  const native = () => translatorFor(resolveLanguage(language, deps.systemLanguages?.() ?? []));
  // Set once the menu exists (a settings change can arrive before that).
  let rebuildMenu: (() => void) | null = null;

  try {
    core = await deps.createCore({
      host, stateDir: deps.paths.stateDir, env: deps.env, logger: deps.logger, startHotFolders: true,
      confirmOriginChange: dialogOriginConsent((box) => deps.showMessageBox(win && !win.isDestroyed() ? win : null, box), () => native().ns('native')),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error('core failed to start', { message });
    deps.showErrorBox(`${APP_NAME} could not start`, message);
    app.quit();
    throw error;
  }
  const started = core;

  deps.installIpc({
    handlers: started.handlers,
    secrets: () => started.secrets(),
    isOurWebContents: (id) => trusted.has(id),
    onRefused: (channel, reason) => log.warn('refused IPC message', { channel, reason }),
    onInternalError: (channel, message) => log.error('IPC handler failed', { channel, message }),
  });
  forwardCoreEvents(started, () => (win && !win.isDestroyed() ? [win.webContents] : []));

  let armedFromEvents = 0;
  const armedCount = () => (started.hasArmedHotFolders() ? Math.max(1, armedFromEvents) : 0);
  const notify = (title: string, body: string) => deps.notify(title, body, showWindow);
  const residency = createTrayResidency({
    appName: APP_NAME,
    platform: deps.platform,
    createTray: deps.createTray,
    buildMenu: deps.buildMenu,
    armedCount,
    showWindow,
    hideWindow: () => win?.hide(),
    isWindowVisible: () => Boolean(win && !win.isDestroyed() && win.isVisible()),
    quit: () => app.quit(),
    notify,
  });

  let lowBalance = 0;
  const attention = createAttention({
    setProgress: (fraction, mode) => win && !win.isDestroyed() && win.setProgressBar(fraction, { mode }),
    notify,
    // A click on "Batch done" opens Review on that batch (app:navigate carries it to the renderer).
    notifyOpening: (title, body, batchId) => deps.notify(title, body, () => {
      showWindow();
      core?.emit('app:navigate', batchId ? { view: 'review', batchId } : { view: 'queue' });
    }),
    lowBalanceThreshold: () => lowBalance,
    isWindowFocused: () => Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused()),
    translator: native,
  });
  started.onEvent((channel, payload) => {
    attention.handle(channel, payload);
    if (channel === 'batches:progress') {
      const unreachable = (payload as BatchProgressEvent).engine?.unreachable ?? null;
      residency.setStatus(unreachable ? unreachableMessage(unreachable, Date.now()) : null);
    } else if (channel === 'hotFolders:changed') {
      armedFromEvents = (payload as Array<{ config: { enabled: boolean } }>).filter((s) => s.config.enabled).length;
      residency.refresh();
    } else if (channel === 'settings:changed') {
      const settings = payload as { theme: Theme; lowBalanceWarning: number; language?: LanguageSetting };
      deps.theme.set(settings.theme);
      lowBalance = settings.lowBalanceWarning;
      if (settings.language !== language) {
        language = settings.language;
        rebuildMenu?.();
      }
    }
  });
  try {
    const { settings } = await started.handlers['settings:get']({});
    deps.theme.set(settings.theme);
    lowBalance = settings.lowBalanceWarning;
    language = settings.language;
  } catch (error) {
    log.warn('could not read settings for theme', { message: error instanceof Error ? error.message : String(error) });
  }

  const quit = installGracefulQuit(app, {
    core: started,
    timeoutMs: deps.quitTimeoutMs,
    onQuitStarted: () => residency.setQuitting(),
    onWaiting: (busy) => notify(`Finishing before ${APP_NAME} quits`, `Waiting for ${busy} result${busy === 1 ? '' : 's'} to finish downloading.`),
    onError: (error) => log.error('shutdown failed', { message: error instanceof Error ? error.message : String(error) }),
  });
  app.on('window-all-closed', () => {
    if (deps.platform !== 'darwin' && armedCount() === 0) app.quit();
  });
  app.on('activate', () => showWindow());

  rebuildMenu = installAppMenu(deps, {
    host,
    labels: () => native().ns('native'),
    addPaths: (paths) => relay.push(paths),
    navigate: (view) => {
      showWindow();
      core?.emit('app:navigate', { view });
    },
  });

  const stateFile = join(deps.paths.userData, 'window-state.json');
  function openWindow(): W {
    const state = loadWindowState(stateFile, deps.workAreas());
    const created = deps.createWindow(
      secureWindowOptions({
        preloadPath: deps.paths.preload,
        bounds: { x: state.x, y: state.y, width: state.width, height: state.height },
        backgroundColor: deps.theme.isDark() ? '#1c1c1e' : '#ffffff',
        iconPath: deps.paths.windowIcon,
        title: APP_NAME,
      }),
    );
    win = created;
    const contentsId = created.webContents.id;
    trusted.add(contentsId);
    relay.setReady(false);
    trackWindowState(created, (s) => {
      try {
        saveWindowState(stateFile, s);
      } catch (error) {
        log.warn('could not save window state', { message: error instanceof Error ? error.message : String(error) });
      }
    });
    if (state.maximized) created.maximize();
    created.on('ready-to-show', () => created.show());
    created.on('close', (event) => residency.onWindowClose(event));
    created.on('closed', () => {
      trusted.delete(contentsId);
      if (win === created) {
        win = null;
        relay.setReady(false);
      }
    });
    created.webContents.on('did-finish-load', () => relay.setReady(true));
    created.loadURL(APP_ENTRY_URL).catch((error: unknown) => log.error('renderer failed to load', { message: String(error) }));
    return created;
  }

  ready = true;
  openWindow();
  if (started.hasArmedHotFolders()) residency.refresh();
  return { core: started, host, window: () => win, quit };
}
