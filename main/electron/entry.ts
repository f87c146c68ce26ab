// The Electron main process entry (bundled to dist/electron/main.cjs). The only module that needs a running
// Electron: it binds Electron's real objects to the injected dependencies of startElectronApp and does nothing else.
import {
  BrowserWindow, Menu, Notification, Tray, app, crashReporter, dialog, nativeImage, nativeTheme, protocol, screen, session, shell,
} from 'electron';
import { join } from 'node:path';
import { APP_NAME } from '../../shared/app-info';
import { createCore } from '../core/app/create-core';
import { createLogger } from '../core/log';
import { resolveStateDir } from '../core/settings/state-dir';
import { startElectronApp } from './app-main';
import { PRIVILEGED_SCHEMES } from './constants';
import { installIpc } from './ipc-main';
import { createElectronStoreBackend } from './settings-backend';
import { createFileLogSink } from './log-file';
import { hasMemoryProfile, MEMORY_ENV, MEMORY_NODE_FLAGS } from '../../bin/memory-profile.mjs';
import { startEmbeddedSandbox } from '../sandbox/embedded';
import { appCommandFor, consoleModeArgs, flushStdio } from '../core/app/console-mode';
import { createUpdateSlot } from '../core/update/handlers';
import { startAppUpdates } from './updater';
import { createLogTail, teeLogSinks } from '../core/crash/log-tail';
import { installCrashReporting } from './crash-reports';

const APP_ID = 'app.batchroom.desktop';
/** Notifications shown and not yet clicked or closed (see notify below). */
const shownNotifications = new Set<Notification>();
// dist/electron/main.cjs → the app root (package.json, dist/renderer, assets).
const appRoot = join(__dirname, '..', '..');

// Console mode (`Batchroom --cli …`, what the installed `batchroom` command runs): the CLI in this process, no
// window, no Dock icon, no single-instance lock (the app may be open meanwhile); the app exits with the command's code.
const cliArgs = consoleModeArgs(process.argv, app.isPackaged);
if (cliArgs !== null) runConsoleMode(cliArgs);
else startDesktop();

function runConsoleMode(args: string[]): void {
  app.dock?.hide();
  import('../cli/main')
    .then(({ main }) => main(args), (error: unknown) => {
      process.stderr.write(`batchroom: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    })
    .then(async (code) => {
      await flushStdio(); // app.exit does not wait for pending writes to a pipe
      app.exit(code);
    });
}

function startDesktop(): void {
  // The engine's memory profile (bin/memory-profile.mjs). Renderers take the V8 flags through the command line; the
  // main process only reads them at start-up, and glibc only reads its MALLOC_* settings then, so on Linux the app
  // starts once more with both before anything else happens (elsewhere the core's sharp settings apply; the malloc
  // settings are glibc's).
  app.commandLine.appendSwitch('js-flags', MEMORY_NODE_FLAGS.join(' '));
  if (process.platform === 'linux' && !hasMemoryProfile()) {
    Object.assign(process.env, MEMORY_ENV, { BATCHROOM_MEMORY_PROFILE: '1' });
    app.relaunch({ args: [...process.argv.slice(1), `--js-flags=${MEMORY_NODE_FLAGS.join(' ')}`] });
    app.exit(0);
  }

  app.setName(APP_NAME);
  app.setPath('userData', join(app.getPath('appData'), APP_NAME));
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);

  let secrets: () => readonly string[] = () => [];
  // The last 200 log records are also kept in memory for crash reports (main/core/crash/).
  const logTail = createLogTail();
  const logger = createLogger({
    scope: 'app',
    sink: teeLogSinks(createFileLogSink(app.getPath('logs')), logTail.push),
    secrets: () => secrets(),
    minLevel: process.env.BATCHROOM_DEBUG ? 'debug' : 'info',
  });
  const crash = installCrashReporting({
    app, crashReporter, process, stateDir: resolveStateDir({ env: process.env }), appRoot, tail: logTail,
    secrets: () => secrets(), osVersion: process.getSystemVersion?.(), // absent in plain Node (the bundle's smoke test)
    openPath: (path) => shell.openPath(path),
    showItemInFolder: (path) => shell.showItemInFolder(path),
    showMessage: (title, message) => void dialog.showMessageBox({ type: 'info', title, message }),
  });

  const trayIcon = () => {
    const file = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
    const image = nativeImage.createFromPath(join(appRoot, 'assets', file));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    return image;
  };

  const dragIcon = (path: string) => {
    const preview = nativeImage.createFromPath(path);
    if (!preview.isEmpty()) return preview.resize({ width: 96 });
    return nativeImage.createFromPath(join(appRoot, 'assets', 'icon.png')).resize({ width: 64 });
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  // Auto-update (docs/updates.md): the controller answers `update:*` once the core is up (packaged builds only).
  const updateSlot = createUpdateSlot();

  startElectronApp({
    app,
    platform: process.platform,
    isDev: !app.isPackaged,
    systemLanguages: () => app.getPreferredSystemLanguages(),
    argv: process.argv,
    cwd: process.cwd(),
    selfPaths: [process.execPath, app.getAppPath(), '.'],
    paths: {
      rendererRoot: join(appRoot, 'dist', 'renderer'),
      preload: join(__dirname, 'preload.cjs'),
      windowIcon: process.platform === 'darwin' ? undefined : join(appRoot, 'assets', 'icon.png'),
      userData: app.getPath('userData'),
      logs: app.getPath('logs'),
      // BATCHROOM_STATE_DIR or the per-user folder the CLI uses too (the same folder as userData).
      stateDir: resolveStateDir({ env: process.env }),
    },
    protocol,
    session: session.defaultSession,
    createWindow: (options) => new BrowserWindow(options),
    createTray: () => new Tray(trayIcon()),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    setApplicationMenu: (menu) => Menu.setApplicationMenu(menu),
    theme: {
      set: (theme) => {
        nativeTheme.themeSource = theme;
      },
      isDark: () => nativeTheme.shouldUseDarkColors,
    },
    notify: (title, body, onClick) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      // Held until clicked or closed: Electron keeps only a weak reference, and a collected notification's click
      // handler never runs (electron/electron#16922).
      shownNotifications.add(notification);
      const release = () => shownNotifications.delete(notification);
      notification.on('click', () => { release(); onClick(); });
      notification.on('close', release);
      notification.show();
    },
    openExternal: (url) => void shell.openExternal(url),
    showItemInFolder: (path) => shell.showItemInFolder(path),
    openPath: (path) => shell.openPath(path),
    showOpenDialog: (win, request) =>
      win ? dialog.showOpenDialog(win, request) : dialog.showOpenDialog(request),
    startDrag: (win, path) => win.webContents.startDrag({ file: path, icon: dragIcon(path) }),
    workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
    showErrorBox: (title, message) => dialog.showErrorBox(title, message),
    showMessage: (title, message) => void dialog.showMessageBox({ type: 'info', title, message }),
    showMessageBox: (win, box) => (win ? dialog.showMessageBox(win, box) : dialog.showMessageBox(box)),
    appCommand: appCommandFor({ platform: process.platform, execPath: process.execPath, appPath: app.getAppPath(), packaged: app.isPackaged, env: process.env }),
    installIpc,
    reportProblem: () => crash.reportProblem(),
    createCore: async (options) => {
      // Settings through electron-store inside Electron (the same settings.json the CLI reads through conf).
      const core = await createCore({ ...options, updates: updateSlot, createSettingsBackend: createElectronStoreBackend, startEmbeddedService: startEmbeddedSandbox });
      secrets = () => core.secrets();
      return core;
    },
    logger,
    env: process.env,
  }).then((running) => {
    if (!running) return;
    startAppUpdates({
      core: running.core, slot: updateSlot, isPackaged: app.isPackaged, execPath: process.execPath, platform: process.platform,
      env: process.env, logger, loadUpdater: async () => (await import('electron-updater')).autoUpdater,
    }).catch((error: unknown) => logger.warn('update checks not started', { message: error instanceof Error ? error.message : String(error) }));
  }).catch((error: unknown) => {
    logger.error('startup failed', { message: error instanceof Error ? error.message : String(error) });
    app.exit(1);
  });
}
