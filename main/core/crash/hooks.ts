import type { CrashEvent } from './report';

/** The slice of `process` the hooks need (a fake in tests). */
export interface ProcessEvents {
  on(event: 'uncaughtExceptionMonitor', listener: (error: Error, origin: string) => void): unknown;
}

/**
 * Writes a report for an uncaught exception (or an unhandled rejection, which Node turns into one) of this process.
 * `uncaughtExceptionMonitor` sees the error before Node's own handling and changes nothing about it: plain Node still
 * prints it and exits 1, Electron still shows its error box. `report` must be synchronous — nothing asynchronous
 * runs after it — and a report that cannot be written is given up quietly, never a second crash.
 */
export function installCrashHooks(proc: ProcessEvents, report: (event: CrashEvent) => void): void {
  proc.on('uncaughtExceptionMonitor', (error, origin) => {
    try {
      report({
        what: origin === 'unhandledRejection' ? 'Unhandled promise rejection in the main process' : 'Uncaught exception in the main process',
        error,
      });
    } catch {
      // the state folder may be gone or full: the original error still ends the process as it would have
    }
  });
}
