// The desktop app's console mode: `Batchroom --cli <command…>` runs the command-line tool inside the app's own
// binary, with no window, so the launcher that "Install Command-Line Tool" puts on the PATH needs neither Node nor
// the RunAsNode fuse (which stays off: docs/security.md). On Windows Electron attaches to the terminal it was started
// from unless ELECTRON_NO_ATTACH_CONSOLE is set, and cmd.exe waits for a program a batch file starts, so the
// launcher's output and exit code are the command's.

export const CONSOLE_FLAG = '--cli';

/**
 * The command's arguments when the app was started in console mode, else null. The flag must be the first argument
 * the user gave: after the executable, and after the app folder when Electron runs an unpackaged app
 * (`electron . --cli …`). A `--cli` anywhere else (a photo named so, a Chromium switch) is not console mode.
 */
export function consoleModeArgs(argv: readonly string[], packaged: boolean): string[] | null {
  const first = packaged ? 1 : 2;
  return argv[first] === CONSOLE_FLAG ? argv.slice(first + 1) : null;
}
