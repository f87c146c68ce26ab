import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogTail } from '../../../main/core/crash/log-tail';
import { installCrashReporting } from '../../../main/electron/crash-reports';
import { appMenuTemplate } from '../../../main/electron/menu';

// The Electron wiring in plain Node, with fakes of the objects it receives: minidumps stay local, a renderer that
// dies leaves a report (a window closed normally does not), an uncaught error does too, and Help ▸ Report a
// Problem… opens the newest report, or says there is none.

const dir = mkdtempSync(join(tmpdir(), 'br-crash-electron-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(name: string) {
  const stateDir = join(dir, name, 'state');
  const dumps = join(dir, name, 'Crashpad');
  mkdirSync(join(dumps, 'completed'), { recursive: true });
  writeFileSync(join(dumps, 'completed', 'a.dmp'), '');
  const app = Object.assign(new EventEmitter(), { getPath: (what: string) => (what === 'crashDumps' ? dumps : '') });
  const proc = new EventEmitter();
  const crashReporter = { start: vi.fn() };
  const tail = createLogTail();
  tail.push({ at: 't', level: 'info', scope: 'app', message: 'opened /Users/ann/shoot/IMG_0007.jpg' });
  const deps = { openPath: vi.fn(async () => ''), showItemInFolder: vi.fn(), showMessage: vi.fn() };
  const crash = installCrashReporting({
    app, crashReporter, process: proc, stateDir, appRoot: '/opt/batchroom', tail, secrets: () => ['sk_live_zzzzzzzz0000'], ...deps,
  });
  const reports = () => {
    try {
      return readdirSync(join(stateDir, 'crash-reports'));
    } catch {
      return [];
    }
  };
  return { app, proc, crashReporter, crash, deps, reports, stateDir };
}

describe('crash reports in the Electron app', () => {
  it('starts the crash reporter with uploads off', () => {
    const { crashReporter } = setup('start');
    expect(crashReporter.start).toHaveBeenCalledWith(expect.objectContaining({ uploadToServer: false }));
  });

  it('a renderer that crashes leaves a report; one that exits cleanly does not', () => {
    const { app, reports, stateDir } = setup('renderer');
    app.emit('render-process-gone', {}, {}, { reason: 'clean-exit', exitCode: 0 });
    expect(reports()).toEqual([]);
    app.emit('render-process-gone', {}, {}, { reason: 'crashed', exitCode: 139 });
    expect(reports()).toHaveLength(1);
    const text = readFileSync(join(stateDir, 'crash-reports', reports()[0]!), 'utf8');
    expect(text).toContain('What: Window content process gone (crashed)');
    expect(text).toContain('exitCode: 139');
    expect(text).toContain('Crash dumps kept on this computer: 1');
    expect(text).toContain('"message":"opened <path>"');
    expect(text).not.toMatch(/IMG_0007|\/Users\/ann/);
  });

  it('an uncaught main-process error leaves a report (through uncaughtExceptionMonitor)', () => {
    const { proc, reports, stateDir } = setup('main');
    proc.emit('uncaughtExceptionMonitor', new Error('boom with sk_live_zzzzzzzz0000'), 'uncaughtException');
    const text = readFileSync(join(stateDir, 'crash-reports', reports()[0]!), 'utf8');
    expect(text).toMatch(/^Error: boom with sk_live_…0000$/m);
    expect(text).not.toContain('sk_live_zzzzzzzz0000');
  });

  it('Report a Problem… opens the newest report and selects it in its folder; with none it says so', async () => {
    const { app, crash, deps, reports, stateDir } = setup('menu');
    crash.reportProblem();
    expect(deps.openPath).not.toHaveBeenCalled();
    expect(deps.showMessage).toHaveBeenCalledWith('Report a Problem', expect.stringContaining('no problem report'));
    app.emit('render-process-gone', {}, {}, { reason: 'oom', exitCode: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20)); // a later time stamp for the second report
    app.emit('render-process-gone', {}, {}, { reason: 'crashed', exitCode: 2 });
    const newest = join(stateDir, 'crash-reports', reports().sort().at(-1)!);
    crash.reportProblem();
    expect(deps.openPath).toHaveBeenCalledWith(newest);
    expect(deps.showItemInFolder).toHaveBeenCalledWith(newest);
    expect(readFileSync(newest, 'utf8')).toContain('(crashed)');
  });

  it('Help has Report a Problem… when the app wires it', () => {
    const reportProblem = vi.fn();
    const actions = { addPhotos: vi.fn(), addFolder: vi.fn(), showLogs: vi.fn(), showDataFolder: vi.fn(), navigate: vi.fn(), installCommandLineTool: vi.fn(), uninstallCommandLineTool: vi.fn(), reportProblem };
    for (const platform of ['darwin', 'win32']) {
      const help = appMenuTemplate({ platform, appName: 'Batchroom', isDev: false, actions }).find((m) => m.role === 'help')!;
      const item = (help.submenu as MenuItemConstructorOptions[]).find((i) => i.label === 'Report a Problem…')!;
      item.click!({} as never, undefined, {} as never);
    }
    expect(reportProblem).toHaveBeenCalledTimes(2);
  });
});
