// The desktop app's console mode: `Batchroom --cli <command…>` runs the command-line tool inside the app's own
// binary, with no window, so the launcher that "Install Command-Line Tool" puts on the PATH needs neither Node nor
// the RunAsNode fuse (which stays off: docs/security.md). On Windows Electron attaches to the terminal it was started
// from unless ELECTRON_NO_ATTACH_CONSOLE is set, and cmd.exe waits for a program a batch file starts, so the
// launcher's output and exit code are the command's (docs/cli.md cites Electron's source for both).

export const CONSOLE_FLAG = '--cli';

/**
 * What the launcher puts between the app and the user's arguments. The `--` is needed on Windows: Electron's
 * Windows entry refuses to start (exit -1, no output) when any argument follows one that looks like a URL —
 * `batchroom run --service-url https://… photos` — unless a `--` came first (shell/app/command_line_args.cc,
 * CheckCommandLineArguments); after it Chromium also reads none of the user's arguments as its own switches.
 */
export const CONSOLE_LAUNCH_ARGS = [CONSOLE_FLAG, '--'] as const;

/**
 * The command's arguments when the app was started in console mode, else null. The flag must be the first argument
 * the user gave: after the executable, and after the app folder when Electron runs an unpackaged app
 * (`electron . --cli …`). A `--cli` anywhere else (a photo named so, a Chromium switch) is not console mode. The
 * launcher's `--` right after the flag is dropped (once: a `--` the user typed stays theirs).
 */
export function consoleModeArgs(argv: readonly string[], packaged: boolean): string[] | null {
  const first = packaged ? 1 : 2;
  if (argv[first] !== CONSOLE_FLAG) return null;
  const rest = argv.slice(first + 1);
  return rest[0] === '--' ? rest.slice(1) : rest;
}

/**
 * How a launcher starts this app: its executable, and the app folder when Electron runs it unpackaged (development).
 * An AppImage runs from a mount (/tmp/.mount_…) that is gone when it quits and named anew on every start, so there
 * the launcher names the AppImage file itself, which the AppImage runtime passes as APPIMAGE.
 */
export function appCommandFor(options: {
  platform: string;
  execPath: string;
  appPath: string;
  packaged: boolean;
  env: Record<string, string | undefined>;
}): string[] {
  const program = options.platform === 'linux' && options.env.APPIMAGE ? options.env.APPIMAGE : options.execPath;
  return options.packaged ? [program] : [program, options.appPath];
}

/** Resolves once everything written so far has been handed to the OS (pipes are asynchronous on macOS). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}

/**
 * Console mode ends with app.exit, which does not wait for Node's pending writes: without this, the tail of
 * `batchroom workflows --json | jq` could be lost on macOS, where writes to a pipe are asynchronous.
 */
export async function flushStdio(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): Promise<void> {
  await Promise.all(streams.map(drained));
}
