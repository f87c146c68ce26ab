import { readdirSync } from 'node:fs';
import { APP_NAME, APP_VERSION } from '../../shared/app-info';
import { createCrashReports, processEnvironment, type CrashReports } from '../core/crash/crash-reports';
import { installCrashHooks, type ProcessEvents } from '../core/crash/hooks';
import type { LogTail } from '../core/crash/log-tail';

// The Electron side of crash reports (main/core/crash/ writes them): Electron's own minidumps stay on this computer
// (uploadToServer: false), an uncaught main-process error or a renderer that dies leaves a report in the state
// folder, and Help ▸ Report a Problem… shows the newest one for the user to read and send.

export interface CrashReporterPort {
  start(options: { submitURL: string; uploadToServer: boolean; compress?: boolean }): void;
}

export interface RenderProcessGoneDetails {
  reason: string;
  exitCode: number;
}

export interface CrashAppPort {
  on(event: 'render-process-gone', listener: (event: unknown, webContents: unknown, details: RenderProcessGoneDetails) => void): unknown;
  getPath(name: 'crashDumps'): string;
}

export interface CrashReportingDeps {
  app: CrashAppPort;
  crashReporter: CrashReporterPort;
  process: ProcessEvents;
  stateDir: string;
  appRoot: string;
  tail: LogTail;
  secrets(): readonly string[];
  osVersion?: string;
  openPath(path: string): Promise<string>;
  showItemInFolder(path: string): void;
  showMessage(title: string, message: string): void;
}

function countMinidumps(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.dmp')).length;
}

export function installCrashReporting(deps: CrashReportingDeps): { reports: CrashReports; reportProblem(): void } {
  // Minidumps are written locally only: nothing leaves the computer unless the user sends it.
  deps.crashReporter.start({ submitURL: '', uploadToServer: false, compress: true });
  const reports = createCrashReports({
    stateDir: deps.stateDir,
    environment: processEnvironment(APP_VERSION, deps.osVersion),
    tail: deps.tail,
    secrets: deps.secrets,
    appRoot: deps.appRoot,
    countMinidumps: () => countMinidumps(deps.app.getPath('crashDumps')),
  });
  installCrashHooks(deps.process, (event) => reports.report(event, 'main'));
  deps.app.on('render-process-gone', (_event, _contents, details) => {
    // A window closed normally is not a crash.
    if (details.reason === 'clean-exit') return;
    reports.report({ what: `Window content process gone (${details.reason})`, detail: { reason: details.reason, exitCode: details.exitCode } }, 'renderer');
  });
  return {
    reports,
    reportProblem() {
      const newest = reports.newest();
      if (!newest) {
        deps.showMessage('Report a Problem', `${APP_NAME} has not crashed on this computer, so there is no problem report. If something went wrong without a crash, Help ▸ Show Log Files has the logs.`);
        return;
      }
      // The report opens in the default text editor to be read, and is selected in its folder to be attached.
      void deps.openPath(newest);
      deps.showItemInFolder(newest);
    },
  };
}
