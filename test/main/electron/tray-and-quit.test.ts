import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { installGracefulQuit } from '../../../main/electron/graceful-quit';
import { createTrayResidency } from '../../../main/electron/tray';
import { FakeEmitter, FakeTray, FakeWindow, fakeCore, preventable } from './fakes';

function residency(platform = 'win32') {
  const win = new FakeWindow();
  win.visible = true;
  const trays: FakeTray[] = [];
  const state = { armed: 0, quits: 0, notices: [] as string[] };
  const tray = createTrayResidency({
    appName: 'Batchroom',
    platform,
    createTray: () => {
      const t = new FakeTray();
      trays.push(t);
      return t;
    },
    buildMenu: (template: MenuItemConstructorOptions[]) => template,
    armedCount: () => state.armed,
    showWindow: () => win.show(),
    hideWindow: () => win.hide(),
    isWindowVisible: () => win.visible,
    quit: () => void state.quits++,
    notify: (title) => void state.notices.push(title),
  });
  win.on('close', (event: never) => tray.onWindowClose(event));
  return { win, trays, state, tray };
}

describe('tray residency', () => {
  it('lets the window close normally when no hot folder is armed', () => {
    const { win, trays, tray } = residency();
    expect(win.userClose()).toBe(true);
    expect(trays).toHaveLength(0);
    expect(tray.hasTray).toBe(false);
  });

  it('hides into the tray while hot folders are armed, and the tray brings it back', () => {
    const { win, trays, state, tray } = residency();
    state.armed = 2;
    expect(win.userClose()).toBe(false);
    expect(win.visible).toBe(false);
    expect(tray.hasTray).toBe(true);
    expect(trays[0]!.tooltip).toMatch(/watching 2 hot folders/);
    expect(state.notices).toHaveLength(1);
    const menu = trays[0]!.menu as MenuItemConstructorOptions[];
    expect(menu.map((i) => i.label ?? i.type)).toEqual(['Open Batchroom', 'Watching 2 hot folders', 'separator', 'Quit Batchroom']);
    trays[0]!.emit('click');
    expect(win.visible).toBe(true);
    menu[3]!.click!({} as never, undefined, {} as never);
    expect(state.quits).toBe(1);
  });

  it('drops the tray and quits a hidden app when the last folder is disarmed (not on macOS)', () => {
    for (const [platform, quits] of [['win32', 1], ['darwin', 0]] as const) {
      const { win, state, tray } = residency(platform);
      state.armed = 1;
      win.userClose();
      state.armed = 0;
      tray.refresh();
      expect(tray.hasTray).toBe(false);
      expect(state.quits, platform).toBe(quits);
    }
  });

  it('adds the service outage to the tooltip while it lasts', () => {
    const { win, trays, state, tray } = residency();
    state.armed = 1;
    win.userClose();
    tray.setStatus("Can't reach the service — retrying (next try in 8 s)");
    expect(trays[0]!.tooltip).toBe("Batchroom: watching 1 hot folder\nCan't reach the service — retrying (next try in 8 s)");
    tray.setStatus(null);
    expect(trays[0]!.tooltip).toBe('Batchroom: watching 1 hot folder');
  });

  it('no longer intercepts close once the app is really quitting', () => {
    const { win, state, tray } = residency();
    state.armed = 1;
    tray.refresh();
    expect(tray.hasTray).toBe(true);
    tray.setQuitting();
    expect(tray.hasTray).toBe(false);
    expect(win.userClose()).toBe(true);
  });
});

class FakeQuitApp extends FakeEmitter {
  quitRequests = 0;
  exited = false;
  /** Electron's quit: emit before-quit; unless prevented, the app exits. */
  quit = () => {
    this.quitRequests++;
    const event = preventable();
    this.emit('before-quit', event);
    if (!event.prevented) this.exited = true;
  };
}

describe('graceful quit', () => {
  it('quits at once, after a graceful core shutdown, when nothing is in flight', async () => {
    const app = new FakeQuitApp();
    const core = fakeCore();
    const quit = installGracefulQuit(app, { core, sleep: async () => undefined });
    app.quit();
    expect(app.exited).toBe(false);
    await quit.finished;
    expect(core.shutdownCalls).toEqual([expect.objectContaining({ graceful: true })]);
    expect(app.exited).toBe(true);
    expect(app.quitRequests).toBe(2);
  });

  it('waits for in-flight downloads to drain before shutting down', async () => {
    const app = new FakeQuitApp();
    const core = fakeCore();
    core.busy = 3;
    const waiting = vi.fn();
    const onQuitStarted = vi.fn();
    let polls = 0;
    const quit = installGracefulQuit(app, {
      core,
      onWaiting: waiting,
      onQuitStarted,
      sleep: async () => {
        polls++;
        core.busy = Math.max(0, core.busy - 1);
        expect(core.shutdownCalls).toHaveLength(0);
      },
    });
    app.quit();
    expect(quit.state).toBe('draining');
    expect(onQuitStarted).toHaveBeenCalledTimes(1);
    await quit.finished;
    expect(waiting).toHaveBeenCalledWith(3);
    expect(polls).toBe(3);
    expect(core.shutdownCalls).toHaveLength(1);
    expect(app.exited).toBe(true);
  });

  it('gives up waiting at the timeout and still shuts the journal down cleanly', async () => {
    const app = new FakeQuitApp();
    const core = fakeCore();
    core.busy = 1;
    let clock = 0;
    const quit = installGracefulQuit(app, { core, timeoutMs: 5_000, pollMs: 1_000, now: () => clock, sleep: async (ms) => void (clock += ms) });
    app.quit();
    await quit.finished;
    expect(clock).toBe(5_000);
    expect(core.shutdownCalls).toEqual([expect.objectContaining({ graceful: true })]);
    expect(app.exited).toBe(true);
  });

  it('stops waiting when the user asks to quit a second time', async () => {
    const app = new FakeQuitApp();
    const core = fakeCore();
    core.busy = 1;
    let release: () => void = () => undefined;
    const quit = installGracefulQuit(app, { core, sleep: () => new Promise<void>((r) => (release = r)) });
    app.quit();
    await Promise.resolve();
    app.quit();
    expect(app.exited).toBe(false);
    release();
    await quit.finished;
    expect(core.busy).toBe(1);
    expect(core.shutdownCalls).toEqual([{ graceful: true, timeoutMs: 1_000 }]);
    expect(app.exited).toBe(true);
  });

  it('quits even when the core shutdown fails', async () => {
    const app = new FakeQuitApp();
    const core = fakeCore();
    core.shutdown = async () => {
      throw new Error('disk gone');
    };
    const onError = vi.fn();
    const quit = installGracefulQuit(app, { core, onError, sleep: async () => undefined });
    app.quit();
    await quit.finished;
    expect(onError).toHaveBeenCalled();
    expect(app.exited).toBe(true);
  });
});
