import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { PreventableEvent } from './ports';

/**
 * A launch argument that is a URL rather than a path: `batchroom://…` (the OS passes a clicked link as an argument),
 * `file://…`, `http://…`. The app defines no deep links, so none of them names a file to open — resolving
 * `batchroom://x/../../Users/me/secret` as a relative path would turn any web page's link into a file pick. A
 * scheme has two or more letters, so a Windows drive (`C:\photos`) is still a path.
 */
export function isUrlArgument(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(arg);
}

/** A path handed in from outside must be as clean as IPC input: absolute, no NUL or control characters, no URL. */
export function isAcceptablePathArgument(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  return path.length > 0 && path.length <= 4096 && !/[\u0000-\u001f]/.test(path) && !isUrlArgument(path);
}

/**
 * The file and folder arguments of a launch: flags (ours and the ones Chromium adds, like
 * `--original-process-start-time`), the executable and the app's own path are dropped; relative paths are
 * resolved against the launching shell's directory; only paths that exist are kept.
 */
export function pathsFromArgv(
  argv: readonly string[],
  workingDirectory: string,
  options: { ignore?: readonly string[]; exists?: (path: string) => boolean } = {},
): string[] {
  const exists = options.exists ?? existsSync;
  const ignore = new Set((options.ignore ?? []).map((p) => resolve(p)));
  const out: string[] = [];
  for (const arg of argv.slice(1)) {
    if (!arg || arg.startsWith('-') || !isAcceptablePathArgument(arg)) continue;
    const absolute = resolve(workingDirectory, arg);
    if (ignore.has(absolute) || out.includes(absolute)) continue;
    if (exists(absolute)) out.push(absolute);
  }
  return out;
}

export interface OpenedPathsRelay {
  /** Paths from outside: a second launch, a dock/taskbar drop, "Open with". */
  push(paths: readonly string[]): void;
  /** Whether the renderer can receive events (false while a window loads): paths wait until it can. */
  setReady(ready: boolean): void;
}

/**
 * Collects opened paths and emits them as one `files:opened` event. macOS sends one `open-file` per dropped file
 * in quick succession, and may do so before the window exists; both are gathered and delivered together.
 */
export function createOpenedPathsRelay(
  emit: (paths: string[]) => void,
  options: { coalesceMs?: number; setTimer?: (fn: () => void, ms: number) => unknown } = {},
): OpenedPathsRelay {
  const coalesceMs = options.coalesceMs ?? 150;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  let ready = false;
  let timerPending = false;
  let pending: string[] = [];
  const flush = () => {
    timerPending = false;
    if (!ready || pending.length === 0) return;
    const paths = pending;
    pending = [];
    emit(paths);
  };
  return {
    push(paths) {
      for (const path of paths) if (!pending.includes(path)) pending.push(path);
      if (ready && !timerPending && pending.length > 0) {
        timerPending = true;
        setTimer(flush, coalesceMs);
      }
    },
    setReady(value) {
      ready = value;
      if (ready) flush();
    },
  };
}

export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (event: PreventableEvent, argv: string[], workingDirectory: string) => void): unknown;
  on(event: 'open-file', listener: (event: PreventableEvent, path: string) => void): unknown;
}

export interface SingleInstanceOptions {
  /** Bring the existing window to the front (restoring it if minimised or hidden in the tray). */
  focus(): void;
  relay: OpenedPathsRelay;
  /** Paths that are the app itself rather than documents (process.execPath, app.getAppPath()). */
  ignore: readonly string[];
  exists?: (path: string) => boolean;
}

/**
 * Takes the single-instance lock. The first instance keeps running and receives later launches' paths; a later
 * instance quits at once (its arguments were already delivered to the first by Electron). Returns whether this
 * process is the primary instance.
 */
export function claimSingleInstance(app: SingleInstanceApp, options: SingleInstanceOptions): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => {
    options.focus();
    const paths = pathsFromArgv(argv, workingDirectory, { ignore: options.ignore, exists: options.exists });
    if (paths.length > 0) options.relay.push(paths);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (!isAcceptablePathArgument(path) || !isAbsolute(path)) return;
    options.relay.push([path]);
    // A Dock drop on a running app whose window was closed (macOS) brings the window back to receive it.
    options.focus();
  });
  return true;
}
