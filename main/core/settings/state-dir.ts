import { mkdirSync } from 'node:fs';
import { homedir as osHomedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { APP_NAME } from '../../../shared/app-info';

/** The environment variable that moves settings and the journal (tests, several profiles side by side). */
export const STATE_DIR_ENV = 'BATCHROOM_STATE_DIR';

export interface StateDirOptions {
  /** `--state-dir` from the command line; wins over everything. */
  stateDir?: string | undefined;
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  homedir?: string;
  /** Base for relative `--state-dir` / BATCHROOM_STATE_DIR values. */
  cwd?: string;
}

/**
 * Where settings.json and the journal live, together. Precedence: `--state-dir`, then BATCHROOM_STATE_DIR, then
 * the platform's per-user config folder — the same folder Electron calls `userData` for an app named "Batchroom",
 * so the app and the CLI share one state:
 *   macOS:   ~/Library/Application Support/Batchroom
 *   Windows: %APPDATA%\Batchroom            (e.g. C:\Users\me\AppData\Roaming\Batchroom)
 *   Linux:   $XDG_CONFIG_HOME/Batchroom     (default ~/.config/Batchroom)
 */
export function resolveStateDir(options: StateDirOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const path = platform === 'win32' ? win32 : posix;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.stateDir?.trim() || env[STATE_DIR_ENV]?.trim();
  if (explicit) return path.resolve(cwd, explicit);

  const home = options.homedir ?? osHomedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return path.join(env.APPDATA?.trim() || path.join(home, 'AppData', 'Roaming'), APP_NAME);
  const xdg = env.XDG_CONFIG_HOME?.trim();
  // XDG says relative values are invalid and must be ignored.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), APP_NAME);
}

/** Creates the state directory (owner-only: the journal names the user's files) and returns it. */
export function ensureStateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
