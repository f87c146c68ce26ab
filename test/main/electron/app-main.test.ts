import type { BrowserWindowConstructorOptions } from 'electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../main/core/log';
import type { CoreOptions } from '../../../main/core/app/types';
import { startElectronApp, type ElectronAppDeps } from '../../../main/electron/app-main';
import type { IpcWrapperOptions } from '../../../main/electron/ipc-main';
import { FakeEmitter, batch, FakeTray, FakeWindow, fakeCore, preventable } from './fakes';

const dir = mkdtempSync(join(tmpdir(), 'batchroom-app-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class FakeApp extends FakeEmitter {
  gotLock = true;
  quitCalls = 0;
  exited = false;
  requestSingleInstanceLock = () => this.gotLock;
  whenReady = async () => undefined;
  quit = () => {
    this.quitCalls++;
    const event = preventable();
    this.emit('before-quit', event);
    if (!event.prevented) this.exited = true;
  };
}

function harness(platform = 'win32') {
  const app = new FakeApp();
  const core = fakeCore({
    'settings:get': (async () => ({ settings: { theme: 'dark', lowBalanceWarning: 50 }, warnings: [] })) as never,
  });
  const windows: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const handled = new Map<string, unknown>();
  const themes: string[] = [];
  const notices: string[] = [];
  const clicks: Array<() => void> = [];
  let ipcOptions: IpcWrapperOptions | undefined;
  let coreOptions: CoreOptions | undefined;
  const deps: ElectronAppDeps<FakeWindow, unknown> = {
    app,
    platform,
    isDev: false,
    argv: ['/opt/Batchroom/batchroom'],
    cwd: dir,
    selfPaths: ['/opt/Batchroom/batchroom'],
    paths: { rendererRoot: join(dir, 'renderer'), preload: '/opt/Batchroom/preload.cjs', userData: dir, logs: join(dir, 'logs'), stateDir: dir },
    protocol: { handle: (scheme, handler) => void handled.set(scheme, handler) },
    session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
    createWindow: (options: BrowserWindowConstructorOptions) => {
      const win = new FakeWindow(options);
      windows.push(win);
      return win;
    },
    createTray: () => {
      const tray = new FakeTray();
      trays.push(tray);
      return tray;
    },
    buildMenu: (template) => template,
    setApplicationMenu: vi.fn(),
    theme: { set: (t) => void themes.push(t), isDark: () => true },
    notify: (title, _body, onClick) => {
      notices.push(title);
      clicks.push(onClick);
    },
    openExternal: vi.fn(),
    showItemInFolder: vi.fn(),
    openPath: vi.fn(async () => ''),
    showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })),
    startDrag: vi.fn(),
    workAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
    showErrorBox: vi.fn(),
    showMessage: vi.fn(),
    showMessageBox: vi.fn(async () => ({ response: 0 })),
    appCommand: ['/opt/Batchroom/batchroom'],
    installIpc: (options) => {
      ipcOptions = options;
      return () => undefined;
    },
    createCore: (options) => {
      coreOptions = options;
      return core;
    },
    logger: silentLogger,
    env: {},
  };
  return { app, core, deps, windows, trays, handled, themes, notices, clicks, ipc: () => ipcOptions!, coreOptions: () => coreOptions! };
}

describe('startElectronApp', () => {
  it('wires protocols, permissions, the hardened window, the IPC wrapper and the core', async () => {
    const h = harness();
    const running = await startElectronApp(h.deps);
    expect(running).not.toBeNull();
    expect([...h.handled.keys()].sort()).toEqual(['batchroom', 'batchroom-media']);
    expect(h.deps.session.setPermissionRequestHandler).toHaveBeenCalled();
    expect(h.windows).toHaveLength(1);
    const win = h.windows[0]!;
    expect((win.options as BrowserWindowConstructorOptions).webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/opt/Batchroom/preload.cjs' });
    expect(win.loaded).toEqual(['batchroom://app/index.html']);
    expect(h.ipc().handlers).toBe(h.core.handlers);
    expect(h.ipc().isOurWebContents(win.webContents.id)).toBe(true);
    expect(h.ipc().isOurWebContents(win.webContents.id + 1000)).toBe(false);
    expect(h.coreOptions()).toMatchObject({ stateDir: dir, startHotFolders: true, host: { host: 'electron' } });
    expect(h.themes).toEqual(['dark']);
    h.core.fire('settings:changed', { theme: 'light', lowBalanceWarning: 10 } as never);
    expect(h.themes).toEqual(['dark', 'light']);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
  });

  it("shows the core's app:attention natively; a click brings the window back on Review of that batch", async () => {
    const h = harness();
    await startElectronApp(h.deps);
    const navigations: unknown[] = [];
    h.core.onEvent((channel, payload) => { if (channel === 'app:navigate') navigations.push(payload); });
    h.core.fire('app:attention', { kind: 'batch-paused', title: 'Batch paused: out of credits', body: 'Relight: no credits', batchId: 'b7', needsAction: true });
    expect(h.notices).toEqual(['Batch paused: out of credits']);
    h.windows[0]!.hide();
    h.clicks[0]!();
    expect(h.windows[0]!.visible).toBe(true);
    expect(navigations).toEqual([{ view: 'review', batchId: 'b7' }]);
  });

  it('hands the core a native dialog on its window as the origin-change confirmation', async () => {
    const h = harness();
    await startElectronApp(h.deps);
    const consent = h.coreOptions().confirmOriginChange!;
    expect(consent.via).toBe('dialog');
    const request = { kind: 'move-key', from: 'https://api.example.com', to: 'http://evil.test' } as const;
    expect(await consent.confirm(request)).toBe(false); // the fake user pressed Cancel
    vi.mocked(h.deps.showMessageBox).mockResolvedValueOnce({ response: 1 });
    expect(await consent.confirm(request)).toBe(true);
    const [win, box] = vi.mocked(h.deps.showMessageBox).mock.calls[0]!;
    expect(win).toBe(h.windows[0]); // modal on our window, drawn by main
    expect(box.message).toContain('https://api.example.com');
    expect(box.message).toContain('http://evil.test');
  });

  it('forwards core events and delivers a second launch\'s files once the renderer has loaded', async () => {
    vi.useFakeTimers();
    try {
      const h = harness();
      await startElectronApp(h.deps);
      const win = h.windows[0]!;
      h.app.emit('second-instance', preventable(), ['/opt/Batchroom/batchroom', dir], '/');
      vi.runAllTimers();
      expect(win.webContents.sent.filter((m) => m.channel === 'files:opened')).toEqual([]);
      win.webContents.emit('did-finish-load');
      expect(win.webContents.sent.filter((m) => m.channel === 'files:opened')).toEqual([{ channel: 'files:opened', args: [{ paths: [dir] }] }]);
      expect(win.focused).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops a second instance before doing anything else', async () => {
    const h = harness();
    h.app.gotLock = false;
    expect(await startElectronApp(h.deps)).toBeNull();
    expect(h.windows).toHaveLength(0);
    expect(h.handled.size).toBe(0);
  });

  it('stays in the tray while hot folders are armed and quits gracefully from there', async () => {
    const h = harness();
    const running = await startElectronApp(h.deps);
    const win = h.windows[0]!;
    win.visible = true;
    h.core.armed = true;
    h.core.fire('hotFolders:changed', []);
    expect(h.trays).toHaveLength(1);
    expect(win.userClose()).toBe(false);
    expect(win.visible).toBe(false);

    h.core.busy = 1;
    h.app.quit();
    expect(h.app.exited).toBe(false);
    h.core.busy = 0;
    await running!.quit.finished;
    expect(h.core.shutdownCalls).toEqual([expect.objectContaining({ graceful: true })]);
    expect(h.app.exited).toBe(true);
    expect(win.userClose()).toBe(true);
  });

  it('quits when the last window closes with nothing armed (Windows), but not on macOS', async () => {
    for (const [platform, quits] of [['win32', 1], ['darwin', 0]] as const) {
      const h = harness(platform);
      await startElectronApp(h.deps);
      h.windows[0]!.userClose();
      h.app.emit('window-all-closed');
      expect(h.app.quitCalls, platform).toBe(quits);
      if (platform === 'darwin') {
        h.app.emit('activate');
        expect(h.windows).toHaveLength(2);
      }
    }
  });

  it('puts running batch progress on the taskbar', async () => {
    const h = harness();
    await startElectronApp(h.deps);
    h.core.fire('batches:progress', { batches: [batch({ id: 'b', total: 4, progress: 0.25 })], items: [] });
    expect(h.windows[0]!.progress.at(-1)).toEqual({ value: 0.25, mode: 'normal' });
  });
});

describe('files opened while no window is open (macOS)', () => {
  it('reopens the window and delivers the paths once it has loaded', async () => {
    vi.useFakeTimers();
    try {
      const h = harness('darwin');
      await startElectronApp(h.deps);
      h.windows[0]!.webContents.emit('did-finish-load');
      h.windows[0]!.userClose();
      h.app.emit('open-file', preventable(), '/Users/me/dropped.jpg');
      expect(h.windows).toHaveLength(2);
      const reopened = h.windows[1]!;
      vi.runAllTimers();
      expect(reopened.webContents.sent).toEqual([]);
      reopened.webContents.emit('did-finish-load');
      expect(reopened.webContents.sent).toEqual([{ channel: 'files:opened', args: [{ paths: ['/Users/me/dropped.jpg'] }] }]);
    } finally {
      vi.useRealTimers();
    }
  });
});
