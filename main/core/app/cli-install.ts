import { chmod, lstat, mkdir, readFile, readlink, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { CONSOLE_LAUNCH_ARGS } from './console-mode';

// "Install Command-Line Tool", as VS Code does for `code`: a `batchroom` command on the PATH that starts the app in
// console mode (`--cli`, main/cli/console-mode.ts), so a photographer without Node can script batches. The app's
// RunAsNode fuse stays off (docs/security.md): the launcher runs the app, never arbitrary JavaScript.
// macOS/Linux: a launcher script in the app's data folder, linked from /usr/local/bin. Windows: a batchroom.cmd in
// %LOCALAPPDATA%\Programs\Batchroom\bin, with a word on PATH when that folder is not on it. A file of the same name
// that Batchroom did not write is never replaced.

const MARKER = 'Installed by Batchroom (Install Command-Line Tool)';

export interface CliInstallOptions {
  platform: string;
  /**
   * How to start the app: its executable, and the app folder when Electron runs it unpackaged (development). The
   * launcher adds `--cli` and the user's arguments.
   */
  appCommand: readonly string[];
  /** Where the launcher lives (the app's data folder); the link on the PATH points to it. */
  userData: string;
  env: Record<string, string | undefined>;
  /** The folder on the PATH for macOS/Linux (default /usr/local/bin; tests pass a temp folder). */
  binDir?: string;
}

export interface CliInstallResult {
  /** The command as the user types it, and where it is. */
  command: string;
  path: string;
  /** What to tell the user (one or two sentences). */
  message: string;
}

const quoteSh = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
// cmd.exe: a path cannot hold a double quote, and `%` would expand inside a batch file (`%%` is a literal one).
const quoteCmd = (value: string) => `"${value.replace(/%/g, '%%')}"`;

function launcherText(options: CliInstallOptions): string {
  if (options.platform === 'win32') {
    const command = options.appCommand.map(quoteCmd).join(' ');
    return `@echo off\r\nrem ${MARKER}\r\n${command} ${CONSOLE_LAUNCH_ARGS.join(' ')} %*\r\n`;
  }
  return `#!/bin/sh\n# ${MARKER}\nexec ${options.appCommand.map(quoteSh).join(' ')} ${CONSOLE_LAUNCH_ARGS.join(' ')} "$@"\n`;
}

/** Ours: a script carrying the marker, or a link to our launcher. Anything else at that name belongs to someone else. */
async function ours(path: string, launcher: string): Promise<boolean> {
  const info = await lstat(path).catch(() => null);
  if (!info) return true;
  if (info.isSymbolicLink()) return (await readlink(path).catch(() => '')) === launcher;
  return info.isFile() && (await readFile(path, 'utf8').catch(() => '')).includes(MARKER);
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode });
  await chmod(temp, mode);
  await rename(temp, path);
}

function refuseForeign(path: string): never {
  throw new AppError('conflict', `${path} already exists and was not installed by Batchroom: it was left as it is.`, {
    hint: 'Remove or rename it, then choose Install Command-Line Tool again.',
  });
}

/**
 * A launcher naming an app that will vanish breaks the command silently: one opened from its disk image, or straight
 * from Downloads, which macOS runs from a temporary read-only copy (App Translocation).
 */
function refuseTransientApp(options: CliInstallOptions): void {
  const program = options.appCommand[0] ?? '';
  if (options.platform === 'darwin' && (program.startsWith('/Volumes/') || program.includes('/AppTranslocation/'))) {
    throw new AppError('unsupported', 'Batchroom is running from its disk image or a temporary copy, so the command would stop working.', {
      hint: 'Move Batchroom to the Applications folder, open it from there, then choose Install Command-Line Tool again.',
    });
  }
}

export type CliUninstallOptions = Omit<CliInstallOptions, 'appCommand'>;

// The native join: this runs on Windows there (tests elsewhere pretend, with a local folder as LOCALAPPDATA).
const windowsBinDir = (options: CliUninstallOptions) => join(options.env.LOCALAPPDATA ?? join(options.userData, '..'), 'Programs', 'Batchroom', 'bin');
const posixLauncher = (options: CliUninstallOptions) => join(options.userData, 'bin', 'batchroom');
const denied = (error: unknown) => ['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '');

export async function installCommandLineTool(options: CliInstallOptions): Promise<CliInstallResult> {
  refuseTransientApp(options);
  if (options.platform === 'win32') {
    const dir = windowsBinDir(options);
    const path = join(dir, 'batchroom.cmd');
    if (!(await ours(path, ''))) refuseForeign(path);
    await writeAtomically(path, launcherText(options), 0o755).catch((error: unknown) => cannotWrite(error, dir));
    const onPath = (options.env.PATH ?? options.env.Path ?? '').split(';').some((p) => p.replace(/[\\/]+$/, '').toLowerCase() === dir.toLowerCase());
    return {
      command: 'batchroom', path,
      message: onPath
        ? `Installed ${path}. Open a new terminal and type batchroom --help.`
        : `Installed ${path}. Add ${dir} to your PATH (Settings ▸ System ▸ About ▸ Advanced system settings ▸ Environment Variables), then open a new terminal and type batchroom --help.`,
    };
  }
  const launcher = posixLauncher(options);
  await writeAtomically(launcher, launcherText(options), 0o755).catch((error: unknown) => cannotWrite(error, dirname(launcher)));
  const binDir = options.binDir ?? '/usr/local/bin';
  const path = join(binDir, 'batchroom');
  if (!(await ours(path, launcher))) refuseForeign(path);
  try {
    await mkdir(binDir, { recursive: true });
    await unlink(path).catch(() => undefined);
    await symlink(launcher, path);
  } catch (error) {
    if (denied(error)) {
      throw new AppError('unsupported', `${binDir} needs an administrator to add batchroom there.`, {
        // A new Mac has no /usr/local/bin at all.
        hint: `In Terminal: sudo mkdir -p ${quoteSh(binDir)} && sudo ln -sf ${quoteSh(launcher)} ${quoteSh(path)}`,
      });
    }
    cannotWrite(error, binDir);
  }
  const onPath = (options.env.PATH ?? '').split(delimiter).includes(binDir);
  return {
    command: 'batchroom', path,
    message: `Installed ${path}${onPath ? '' : ` (add ${binDir} to your PATH)`}. Open a new terminal and type batchroom --help.`,
  };
}

/** Uninstall Command-Line Tool: removes what installCommandLineTool wrote, never a `batchroom` someone else put there. */
export async function uninstallCommandLineTool(options: CliUninstallOptions): Promise<CliInstallResult> {
  const windows = options.platform === 'win32';
  const launcher = windows ? '' : posixLauncher(options);
  const path = windows ? join(windowsBinDir(options), 'batchroom.cmd') : join(options.binDir ?? '/usr/local/bin', 'batchroom');
  const present = await lstat(path).then(() => true, () => false);
  if (present && !(await ours(path, launcher))) {
    throw new AppError('conflict', `${path} was not installed by Batchroom: it was left as it is.`, {
      hint: 'Remove it the way it was installed (for npm link: npm unlink -g batchroom).',
    });
  }
  if (present) {
    await unlink(path).catch((error: unknown) => {
      if (denied(error)) {
        throw new AppError('unsupported', `${dirname(path)} needs an administrator to remove batchroom there.`, { hint: `In Terminal: sudo rm ${quoteSh(path)}` });
      }
      cannotWrite(error, dirname(path));
    });
  }
  if (launcher) await rm(launcher, { force: true });
  return { command: 'batchroom', path, message: present ? `Removed ${path}.` : `There was no ${path} to remove.` };
}

function cannotWrite(error: unknown, dir: string): never {
  throw new AppError('internal', `Could not write to ${dir}: ${(error as Error).message}`);
}
