import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve, sep } from 'node:path';
import { AppError } from '../../../shared/errors';

/**
 * File types a file manager or `shell.openPath` would run rather than show. Refused by every path-taking channel
 * even when granted: a folder of photos may also hold `setup.exe`, and a macOS `.app` is a folder.
 */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.app', '.exe', '.com', '.bat', '.cmd', '.command', '.sh', '.bash', '.zsh', '.csh', '.ksh', '.fish', '.js', '.jse', '.mjs',
  '.cjs', '.vbs', '.vbe', '.wsf', '.wsh', '.ps1', '.psm1', '.lnk', '.url', '.scr', '.pif', '.cpl', '.hta', '.msi', '.msp',
  '.msc', '.reg', '.inf', '.jar', '.py', '.pyw', '.pl', '.rb', '.php', '.desktop', '.appimage', '.run', '.bin', '.deb',
  '.rpm', '.pkg', '.mpkg', '.dmg', '.workflow', '.action', '.terminal', '.tool', '.scpt', '.applescript', '.kext',
  '.prefpane', '.webloc', '.inetloc', '.fileloc', '.library-ms', '.settingcontent-ms', '.gadget', '.xbap', '.application',
]);

export type GrantKind = 'file' | 'folder';
export type PathUse = 'reveal' | 'open-folder' | 'drag' | 'preview';

/** What each use needs the path to be once resolved. */
const WANTS: Record<PathUse, GrantKind | 'either'> = { reveal: 'either', 'open-folder': 'folder', drag: 'file', preview: 'file' };

/** What a folder grant allows: showing the folder, never reading through it. */
const FOLDER_USES: ReadonlySet<PathUse> = new Set(['reveal', 'open-folder']);

/**
 * The real path of `path`, also when it does not exist yet (an output folder before the first result): the longest
 * existing prefix is resolved through its symlinks (macOS `/var` → `/private/var`) and the rest appended.
 */
export function canonicalPath(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  let existing = absolute;
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(realpathSync.native(existing), ...missing);
  } catch {
    return absolute;
  }
}

function forbidden(path: string, why: string): AppError {
  return new AppError('forbidden_path', `${why}: ${basename(path) || path}`, { path });
}

/** Does any component of the path end in an executable type (the `.app` bundle around a file counts too)? */
export function looksExecutable(path: string): boolean {
  return path.split(/[\\/]/).some((part) => EXECUTABLE_EXTENSIONS.has(extname(part).toLowerCase()));
}

export interface PathGrants {
  /**
   * The user chose this path (a native dialog, a drop, an OS open) or the core vouches for it otherwise. A `file`
   * grant covers reveal, drag and preview of that one path; a `folder` grant only reveal and open-folder of that
   * directory — never reading the files inside it.
   */
  grant(path: string, kind: GrantKind): void;
  /** A file Batchroom itself wrote (a journalled result): a `file` grant, and its folder may be revealed or opened. */
  grantResult(path: string): void;
  /**
   * An output folder the core reports (a batch's, the settings', a hot folder's). Its value may come from the renderer
   * (`settings:update`, `batches:create`), so it is no grant by itself: it may be revealed or opened only once a
   * result Batchroom wrote lies inside it.
   */
  offerOutputFolder(path: string): void;
  /**
   * Resolves a path the renderer sent for `use` and returns its real path, or throws AppError `forbidden_path`
   * (never granted, an executable type, the wrong kind) or `not_found`. Symlinks are resolved before any check.
   */
  check(path: string, use: PathUse): Promise<string>;
  readonly size: number;
}

/** A usable absolute path (not a URL, no NUL), or null. */
function grantable(path: string): string | null {
  if (!path || path.includes('\0') || !isAbsolute(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return null;
  return resolve(path);
}

/** `path` resolved through its folder's symlinks but not its own last name (see `grant`). */
function grantKey(absolute: string): string {
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(canonicalPath(parent), basename(absolute));
}

/**
 * The set of paths the renderer may name in `files:*` channels: only what the user chose (dialogs, drops) or what
 * Batchroom itself wrote. A compromised renderer can name any string, and can put any string in settings or a
 * batch; it can only ever act on these, and a folder grant never lets it read a file it holds.
 */
export function createPathGrants(): PathGrants {
  const granted = new Map<string, GrantKind>();
  const offered = new Set<string>();
  // Real folders results were written into; an offered output folder counts once one of these is inside it.
  const written = new Set<string>();
  const grant = (path: string, kind: GrantKind) => {
    const absolute = grantable(path);
    // The folder is resolved, the last name is not: a granted name that is (or later becomes) a symlink never
    // matches a request, whose path is resolved all the way — the link's target was never vouched for.
    if (absolute) granted.set(grantKey(absolute), kind);
  };
  const writtenInside = (folder: string) => {
    for (const dir of written) if (dir === folder || dir.startsWith(folder.endsWith(sep) ? folder : folder + sep)) return true;
    return false;
  };
  return {
    grant,
    grantResult(path) {
      const absolute = grantable(path);
      if (!absolute) return;
      grant(absolute, 'file');
      const folder = canonicalPath(dirname(absolute));
      written.add(folder);
      if (!granted.has(folder)) granted.set(folder, 'folder');
    },
    offerOutputFolder(path) {
      const absolute = grantable(path);
      if (absolute) offered.add(canonicalPath(absolute));
    },
    async check(path, use) {
      if (path.includes('\0') || !isAbsolute(path)) throw forbidden(path, 'Only absolute paths Batchroom produced can be used');
      const real = canonicalPath(path);
      const kind = granted.get(real) ?? (offered.has(real) && writtenInside(real) ? 'folder' : undefined);
      if (!kind) throw forbidden(path, 'Batchroom did not produce or open this path');
      if (looksExecutable(real) || looksExecutable(resolve(path))) throw forbidden(path, 'Batchroom never opens or hands out programs');
      const info = await stat(real).catch(() => null);
      if (!info) throw new AppError('not_found', `No such file or folder: ${basename(path)}`, { path });
      // A folder grant is for showing that folder, never for what is in it or for a file that took its name.
      if (kind === 'folder' && (!FOLDER_USES.has(use) || !info.isDirectory())) throw forbidden(path, 'Only the folder itself can be shown');
      const want = WANTS[use];
      if (want === 'folder' && !info.isDirectory()) throw forbidden(path, 'Not a folder');
      if (want === 'file' && !info.isFile()) throw forbidden(path, 'Not a file');
      if (want === 'either' && !info.isFile() && !info.isDirectory()) throw forbidden(path, 'Not a file or folder');
      return real;
    },
    get size() {
      return granted.size;
    },
  };
}

/**
 * Grants the paths Batchroom wrote in a value the core sends the renderer (an invoke result or an event payload), by
 * the field names of the shared model: `outputs` (saved results) and `sources` (a journalled item's inputs) are
 * file grants; an `outputFolder` is only offered (see `offerOutputFolder`) since the renderer can set it.
 */
export function grantPathsIn(value: unknown, grants: PathGrants, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const entry of value) grantPathsIn(entry, grants, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.outputFolder === 'string') grants.offerOutputFolder(record.outputFolder);
  if (Array.isArray(record.outputs)) for (const output of record.outputs) if (typeof output === 'string') grants.grantResult(output);
  if (record.sources && typeof record.sources === 'object') {
    for (const source of Object.values(record.sources as Record<string, unknown>)) if (typeof source === 'string') grants.grant(source, 'file');
  }
  for (const [key, child] of Object.entries(record)) if (key !== 'sources' && key !== 'outputs') grantPathsIn(child, grants, depth + 1);
}
