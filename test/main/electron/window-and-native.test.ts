import type { MenuItemConstructorOptions } from 'electron';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createElectronMediaRegistry } from '../../../main/electron/media-protocol';
import { appMenuTemplate } from '../../../main/electron/menu';
import { createElectronHost, type NativeDeps } from '../../../main/electron/native-host';
import { DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState, trackWindowState } from '../../../main/electron/window-state';
import { FakeWindow } from './fakes';

const dir = mkdtempSync(join(tmpdir(), 'batchroom-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('window state', () => {
  it('remembers size, place and maximised state across launches', () => {
    const file = join(dir, 'state.json');
    const win = new FakeWindow();
    win.bounds = { x: 100, y: 80, width: 1400, height: 900 };
    win.maximized = true;
    trackWindowState(win, (s) => saveWindowState(file, s));
    win.userClose();
    expect(loadWindowState(file, screen)).toEqual({ x: 100, y: 80, width: 1400, height: 900, maximized: true, fullScreen: false });
  });

  it('forgets a position that is on no display any more', () => {
    const file = join(dir, 'offscreen.json');
    saveWindowState(file, { x: 4000, y: 100, width: 1000, height: 700, maximized: false, fullScreen: false });
    expect(loadWindowState(file, screen)).toMatchObject({ x: undefined, y: undefined, width: 1000, height: 700 });
  });

  it('falls back to the default for a missing or damaged file', () => {
    expect(loadWindowState(join(dir, 'none.json'), screen)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(join(dir, 'bad.json'), '{"width": "wide"');
    expect(loadWindowState(join(dir, 'bad.json'), screen)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(join(dir, 'tiny.json'), JSON.stringify({ width: 3, height: 2 }));
    expect(loadWindowState(join(dir, 'tiny.json'), screen)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('debounces saves while the window is being moved', () => {
    vi.useFakeTimers();
    try {
      const saves: unknown[] = [];
      const win = new FakeWindow();
      trackWindowState(win, (s) => saves.push(s), { debounceMs: 300 });
      for (let i = 0; i < 10; i++) win.emit('move');
      expect(saves).toHaveLength(0);
      vi.advanceTimersByTime(300);
      expect(saves).toHaveLength(1);
      expect(JSON.parse(JSON.stringify(saves[0]))).toMatchObject({ width: 1000, height: 700 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('createElectronHost (the HostCapabilities handed to the core)', () => {
  function host(over: Partial<NativeDeps> = {}) {
    const deps: NativeDeps = {
      platform: 'darwin',
      media: createElectronMediaRegistry(() => 'token0123456789'),
      showOpenDialog: vi.fn(async () => ({ canceled: false, filePaths: ['/p/1.jpg', '/p/2.jpg'] })),
      showItemInFolder: vi.fn(),
      openPath: vi.fn(async () => ''),
      startDrag: vi.fn(() => true),
      ...over,
    };
    return { deps, host: createElectronHost(deps) };
  }

  it('offers native pickers that return paths, or nothing when cancelled', async () => {
    const { host: h, deps } = host();
    expect(await h.pickFiles!('Add')).toEqual(['/p/1.jpg', '/p/2.jpg']);
    expect(deps.showOpenDialog).toHaveBeenCalledWith(expect.objectContaining({ title: 'Add', properties: ['openFile', 'multiSelections'] }));
    expect(await h.pickFolder!()).toBe('/p/1.jpg');
    const cancelled = host({ showOpenDialog: async () => ({ canceled: true, filePaths: [] }) }).host;
    expect(await cancelled.pickFiles!()).toEqual([]);
    expect(await cancelled.pickFolder!()).toBeNull();
  });

  it('reveals in Finder/Explorer, opens folders, drags out and hands out media URLs', async () => {
    const { host: h, deps } = host();
    expect(h.host).toBe('electron');
    await h.reveal!('/out/a.jpg');
    expect(deps.showItemInFolder).toHaveBeenCalledWith('/out/a.jpg');
    h.startDrag!('/out/a.jpg');
    expect(deps.startDrag).toHaveBeenCalledWith('/out/a.jpg');
    expect(h.previewUrlFor('/out/a.jpg')).toBe('batchroom-media://file/token0123456789');
    await expect(host({ openPath: async () => 'Folder not found' }).host.openFolder!('/gone')).rejects.toMatchObject({ code: 'not_found' });
    expect(() => host({ startDrag: () => false }).host.startDrag!('/a.jpg')).toThrow(/no window/);
  });
});

describe('app menu', () => {
  const actions = { addPhotos: vi.fn(), addFolder: vi.fn(), showLogs: vi.fn(), showDataFolder: vi.fn(), navigate: vi.fn(), installCommandLineTool: vi.fn(), uninstallCommandLineTool: vi.fn() };
  const flatten = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
    items.flatMap((i) => [i, ...flatten(Array.isArray(i.submenu) ? i.submenu : [])]);

  it('has the usual menus and shortcuts, with the app menu on macOS only', () => {
    const mac = appMenuTemplate({ platform: 'darwin', appName: 'Batchroom', isDev: false, actions });
    const win = appMenuTemplate({ platform: 'win32', appName: 'Batchroom', isDev: false, actions });
    expect(mac.map((m) => m.label ?? m.role)).toEqual(['Batchroom', 'File', 'Edit', 'View', 'window', 'help']);
    expect(win.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'window', 'help']);
    const roles = flatten(mac).map((i) => i.role).filter(Boolean);
    for (const role of ['quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'togglefullscreen', 'minimize', 'hide']) expect(roles).toContain(role);
    const add = flatten(mac).find((i) => i.label === 'Add Photos…')!;
    expect(add.accelerator).toBe('CmdOrCtrl+O');
    add.click!({} as never, undefined, {} as never);
    expect(actions.addPhotos).toHaveBeenCalled();
  });

  it('opens Settings with the platform shortcut and views with CmdOrCtrl+1…4', () => {
    const item = (platform: string, label: string) =>
      flatten(appMenuTemplate({ platform, appName: 'Batchroom', isDev: false, actions })).find((i) => i.label === label)!;
    expect(item('darwin', 'Settings…').accelerator).toBe('Cmd+,');
    expect(item('win32', 'Settings…').accelerator).toBe('Ctrl+,');
    item('win32', 'Settings…').click!({} as never, undefined, {} as never);
    expect(actions.navigate).toHaveBeenLastCalledWith('settings');
    const queue = item('darwin', 'Queue');
    expect(queue.accelerator).toBe('CmdOrCtrl+2');
    queue.click!({} as never, undefined, {} as never);
    expect(actions.navigate).toHaveBeenLastCalledWith('queue');
  });

  it('offers Install Command-Line Tool… and Uninstall Command-Line Tool in Help on every platform', () => {
    for (const platform of ['darwin', 'win32', 'linux']) {
      const help = appMenuTemplate({ platform, appName: 'Batchroom', isDev: false, actions }).find((m) => m.role === 'help')!;
      flatten([help]).find((i) => i.label === 'Install Command-Line Tool…')!.click!({} as never, undefined, {} as never);
      flatten([help]).find((i) => i.label === 'Uninstall Command-Line Tool')!.click!({} as never, undefined, {} as never);
    }
    expect(actions.installCommandLineTool).toHaveBeenCalledTimes(3);
    expect(actions.uninstallCommandLineTool).toHaveBeenCalledTimes(3);
  });

  it('keeps developer tools out of release builds', () => {
    const roles = (isDev: boolean) => flatten(appMenuTemplate({ platform: 'win32', appName: 'Batchroom', isDev, actions })).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('toggleDevTools');
  });
});

it('window state file is plain JSON', () => {
  const file = join(dir, 'plain.json');
  saveWindowState(file, DEFAULT_WINDOW_STATE);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ width: 1280 });
});
