import { chmodSync, existsSync, mkdirSync } from 'node:fs';
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

/** Owner-only modes for the state folder and every file in it (the journal names the user's files). */
export const OWNER_ONLY_DIR_MODE = 0o700;
export const OWNER_ONLY_FILE_MODE = 0o600;

/**
 * Creates the state directory owner-only and returns it. mkdir's mode is filtered by the umask and ignored for a
 * folder that already exists (one made by an older version as 0755), so the mode is set explicitly as well.
 * Windows has no such modes: the per-user profile folder already keeps other users out.
 */
export function ensureStateDir(dir: string, platform: NodeJS.Platform = process.platform): string {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
  if (platform !== 'win32') chmodSync(dir, OWNER_ONLY_DIR_MODE);
  return dir;
}

/** Makes existing files owner-only (files created 0644 by an older version); missing ones are skipped. */
export function restrictToOwner(paths: readonly string[], platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  for (const path of paths) if (existsSync(path)) chmodSync(path, OWNER_ONLY_FILE_MODE);
}
