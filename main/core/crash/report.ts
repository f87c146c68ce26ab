import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogRecord } from '../log';
import { OWNER_ONLY_DIR_MODE, OWNER_ONLY_FILE_MODE } from '../settings/state-dir';
import { scrubText, scrubValue, type ScrubOptions } from './scrub';

// A crash report is a plain text file in the state folder's crash-reports/, written on the spot (synchronously: the
// process may be gone a moment later) and never sent anywhere: Help ▸ Report a Problem… shows it to the user, who
// reads it and decides to send it. Everything in it that came from the app's state is scrubbed (scrub.ts).

export const CRASH_DIR_NAME = 'crash-reports';
const KEEP_REPORTS = 20;

export interface CrashVersions {
  app: string;
  electron?: string;
  node: string;
  chrome?: string;
}

export interface CrashEnvironment {
  versions: CrashVersions;
  /** e.g. "Darwin 24.1.0 (arm64)", "Windows_NT 10.0.22631 (x64)". */
  os: string;
  /** The OS's own version name where the host knows it (Electron: process.getSystemVersion()). */
  osVersion?: string;
}

export interface CrashEvent {
  /** What happened, in words: "Uncaught exception in the main process", "Window content process gone (crashed)". */
  what: string;
  error?: unknown;
  /** Facts of the event that are not text of the user's (reason, exit code). */
  detail?: Record<string, string | number>;
}

export interface CrashReportInput extends CrashEvent {
  environment: CrashEnvironment;
  logs: readonly LogRecord[];
  scrub: ScrubOptions;
  now?: Date;
  /** How many minidumps Electron's crashReporter holds locally (never their folder: it is a path of the user's). */
  minidumps?: number;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack && error.stack.includes(error.message) ? error.stack : `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export function formatCrashReport(input: CrashReportInput): string {
  const { environment: env, scrub } = input;
  const at = (input.now ?? new Date()).toISOString();
  const versions = [`Batchroom ${env.versions.app}`, env.versions.electron && `Electron ${env.versions.electron}`,
    `Node ${env.versions.node}`, env.versions.chrome && `Chrome ${env.versions.chrome}`].filter(Boolean).join(', ');
  const lines = [
    'Batchroom problem report',
    '',
    'Nothing in this file has been sent. Read it, then attach it to a message to support if you want to.',
    'API keys, file and folder paths and photo names have been removed from it.',
    '',
    `When: ${at}`,
    `What: ${scrubText(input.what, scrub)}`,
    ...Object.entries(input.detail ?? {}).map(([k, v]) => `  ${k}: ${scrubText(String(v), scrub)}`),
    `Versions: ${versions}`,
    `OS: ${env.os}${env.osVersion ? ` (version ${env.osVersion})` : ''}`,
    ...(input.minidumps !== undefined ? [`Crash dumps kept on this computer: ${input.minidumps} (not included; support may ask for them)`] : []),
    '',
  ];
  if (input.error !== undefined) lines.push('Error:', scrubText(errorText(input.error), input.scrub).trimEnd(), '');
  lines.push(`Last ${input.logs.length} log lines:`);
  for (const record of input.logs) lines.push(JSON.stringify(scrubValue(record, scrub)));
  return `${lines.join('\n')}\n`;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Writes the report (temp file + rename: never half a report), keeps the newest 20, returns the file's path. */
export function writeCrashReport(stateDir: string, input: CrashReportInput, kind = 'main'): string {
  const dir = join(stateDir, CRASH_DIR_NAME);
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
  const now = input.now ?? new Date();
  const name = `batchroom-${stamp(now)}-${kind.replace(/[^a-z0-9-]/gi, '')}-${process.pid}.txt`;
  const file = join(dir, name);
  const temp = `${file}.tmp`;
  writeFileSync(temp, formatCrashReport({ ...input, now }), { mode: OWNER_ONLY_FILE_MODE });
  renameSync(temp, file);
  pruneCrashReports(dir, KEEP_REPORTS);
  return file;
}

function reports(dir: string): { file: string; mtime: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith('batchroom-') && name.endsWith('.txt'))
    .map((name) => ({ file: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    // Newest first; the name (an ISO time) breaks ties within one clock tick.
    .sort((a, b) => b.mtime - a.mtime || b.file.localeCompare(a.file));
}

function pruneCrashReports(dir: string, keep: number): void {
  for (const { file } of reports(dir).slice(keep)) rmSync(file, { force: true });
}

/** The newest report in the state folder, or null when there is none. */
export function newestCrashReport(stateDir: string): string | null {
  return reports(join(stateDir, CRASH_DIR_NAME))[0]?.file ?? null;
}
