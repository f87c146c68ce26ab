import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
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
  /** The core vouches for this path (an input it scanned, a result it saved, an output folder, a picked path). */
  grant(path: string, kind: GrantKind): void;
  /**
   * Resolves a path the renderer sent for `use` and returns its real path, or throws AppError `forbidden_path`
   * (never granted, an executable type, the wrong kind) or `not_found`. Symlinks are resolved before any check.
   */
  check(path: string, use: PathUse): Promise<string>;
  readonly size: number;
}

/**
 * The set of paths the renderer may name in `files:*` channels: only what the core itself produced or the user
 * chose through a native dialog. A compromised renderer can name any string; it can only ever act on these.
 */
export function createPathGrants(): PathGrants {
  const granted = new Map<string, GrantKind>();
  return {
    grant(path, kind) {
      if (!path || path.includes('\0') || !isAbsolute(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return;
      // The folder is resolved, the last name is not: a granted name that is (or later becomes) a symlink never
      // matches a request, whose path is resolved all the way — the link's target was never vouched for.
      const absolute = resolve(path);
      const parent = dirname(absolute);
      granted.set(parent === absolute ? absolute : join(canonicalPath(parent), basename(absolute)), kind);
    },
    async check(path, use) {
      if (path.includes('\0') || !isAbsolute(path)) throw forbidden(path, 'Only absolute paths Batchroom produced can be used');
      const real = canonicalPath(path);
      const kind = granted.get(real);
      if (!kind) throw forbidden(path, 'Batchroom did not produce or open this path');
      if (looksExecutable(real) || looksExecutable(resolve(path))) throw forbidden(path, 'Batchroom never opens or hands out programs');
      const info = await stat(real).catch(() => null);
      if (!info) throw new AppError('not_found', `No such file or folder: ${basename(path)}`, { path });
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
 * Grants every path in a value the core sends the renderer (an invoke result or an event payload), by the field
 * names of the shared model: `outputFolder` (batches, settings, hot folders), `outputs` (saved results), `sources`
 * (an item's inputs) and a hot folder's watched `path`.
 */
export function grantPathsIn(value: unknown, grants: PathGrants, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const entry of value) grantPathsIn(entry, grants, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.outputFolder === 'string') {
    grants.grant(record.outputFolder, 'folder');
    // A hot folder's config: its watched folder sits next to its output folder.
    if (typeof record.path === 'string' && 'workflowId' in record) grants.grant(record.path, 'folder');
  }
  if (Array.isArray(record.outputs)) for (const output of record.outputs) if (typeof output === 'string') grants.grant(output, 'file');
  if (record.sources && typeof record.sources === 'object') {
    for (const source of Object.values(record.sources as Record<string, unknown>)) if (typeof source === 'string') grants.grant(source, 'file');
  }
  for (const [key, child] of Object.entries(record)) if (key !== 'sources' && key !== 'outputs') grantPathsIn(child, grants, depth + 1);
}
