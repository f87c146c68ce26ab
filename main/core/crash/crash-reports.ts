import { homedir, release, type, userInfo } from 'node:os';
import type { LogTail } from './log-tail';
import { newestCrashReport, writeCrashReport, type CrashEnvironment, type CrashEvent } from './report';
import type { ScrubOptions } from './scrub';

export interface CrashReportsOptions {
  stateDir: string;
  environment: CrashEnvironment;
  tail: LogTail;
  /** The secrets in use at the time of the crash (the API key), read then: a key set after start is known too. */
  secrets?: () => readonly string[];
  /** The app's own folder: stack frames inside it keep their place (`<app>/dist/electron/main.cjs:12`). */
  appRoot?: string;
  /** Minidumps Electron's crashReporter holds locally, counted at report time. */
  countMinidumps?: () => number;
}

export interface CrashReports {
  /** Writes a report now (synchronously) and returns its path; null when it could not be written. */
  report(event: CrashEvent, kind?: string): string | null;
  newest(): string | null;
}

function whoAmI(): { home?: string; user?: string } {
  try {
    return { home: homedir(), user: userInfo().username };
  } catch {
    return { home: homedir() };
  }
}

/** The state folder's crash-reports/, with what every report needs: versions, OS, the log tail, what to scrub. */
export function createCrashReports(options: CrashReportsOptions): CrashReports {
  const scrub = (): ScrubOptions => ({ ...whoAmI(), appRoot: options.appRoot, secrets: options.secrets?.() ?? [] });
  return {
    report(event, kind = 'main') {
      try {
        let minidumps: number | undefined;
        try {
          minidumps = options.countMinidumps?.();
        } catch {
          minidumps = undefined;
        }
        return writeCrashReport(options.stateDir, { ...event, environment: options.environment, logs: options.tail.records(), scrub: scrub(), minidumps }, kind);
      } catch {
        return null;
      }
    },
    newest: () => newestCrashReport(options.stateDir),
  };
}

/** The versions and OS of this process, as a report names them. */
export function processEnvironment(appVersion: string, osVersion?: string): CrashEnvironment {
  const v = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string };
  return {
    versions: { app: appVersion, electron: v.electron, node: v.node, chrome: v.chrome },
    os: `${type()} ${release()} (${process.arch})`,
    osVersion,
  };
}
