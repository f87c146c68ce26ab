import { realpath, stat } from 'node:fs/promises';
import { posix, resolve, win32 } from 'node:path';

// The one "is this path inside this folder" rule of the core (serving files, hot-folder ignore rules, the input scan's
// excluded output folder, mirrored sub-folders, moved originals). Paths are compared segment by segment after
// resolution, so `/a/bc` is never inside `/a/b`, trailing separators and `..` segments do not matter, and a folder
// named `..photos` is inside. Windows and macOS volumes are case-insensitive by default: `C:\Photos` holds
// `c:\photos\x.jpg` there, while on Linux `/Photos` and `/photos` are two folders.

export type PathPlatform = 'win32' | 'darwin' | 'linux' | (string & {});

interface Split { root: string; parts: string[] }

function split(path: string, platform: PathPlatform): Split {
  const api = platform === 'win32' ? win32 : posix;
  const abs = api.resolve(path);
  const root = api.parse(abs).root;
  return { root, parts: abs.slice(root.length).split(api.sep).filter((p) => p !== '') };
}

/**
 * The segments of `path` below `folder` ([] for the folder itself), or null when `path` is not in it. The
 * segments keep the path's own spelling (a case-insensitive match still mirrors `Day1`, not `day1`).
 */
export function segmentsInside(folder: string, path: string, platform: PathPlatform = process.platform): string[] | null {
  const fold = platform === 'win32' || platform === 'darwin' ? (s: string) => s.toLowerCase() : (s: string) => s;
  const outer = split(folder, platform);
  const inner = split(path, platform);
  if (fold(outer.root) !== fold(inner.root) || inner.parts.length < outer.parts.length) return null;
  for (const [i, part] of outer.parts.entries()) if (fold(part) !== fold(inner.parts[i]!)) return null;
  return inner.parts.slice(outer.parts.length);
}

/** True when `path` is `folder` itself or anything below it. */
export function isInside(path: string, folder: string, platform?: PathPlatform): boolean {
  return segmentsInside(folder, path, platform) !== null;
}

/** The '/'-separated path of `path` below `folder` ('' for the folder itself), or null when it is not in it. */
export function relativeInside(folder: string, path: string, platform?: PathPlatform): string | null {
  return segmentsInside(folder, path, platform)?.join('/') ?? null;
}

/** The '/'-separated folder of a file below `folder` ('' when it lies in `folder` itself, or outside it). */
export function subfolderOf(folder: string, file: string, platform?: PathPlatform): string {
  const parts = segmentsInside(folder, file, platform);
  return parts && parts.length > 1 ? parts.slice(0, -1).join('/') : '';
}

/**
 * Maps a URL path onto a regular file strictly inside `root`, or null. Decoding happens once, before resolution, so
 * `%2e%2e/`, `..%2f` and backslashes cannot climb out; the real paths of both the root and the file are compared
 * again so a symlink inside the root cannot point outside it.
 */
export async function resolveInside(root: string, urlPath: string): Promise<string | null> {
  const candidate = candidateInside(root, urlPath);
  if (!candidate) return null;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    if (!isWithin(realRoot, realFile)) return null;
    const info = await stat(realFile);
    return info.isFile() ? realFile : null;
  } catch {
    return null;
  }
}

/** The path a URL path names under `root` before any symlink is followed, or null when it climbs out (or is not a path). */
export function candidateInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const candidate = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  return isWithin(root, candidate) ? candidate : null;
}

/** True when `candidate` is strictly below `root` (not `root` itself). */
export function isWithin(root: string, candidate: string): boolean {
  return (segmentsInside(root, candidate)?.length ?? 0) > 0;
}

/**
 * A file of the built renderer for a URL path (`/` is the index), or null. Source maps are never served: they
 * would hand the full source to anyone who can reach the page, and the packaged app leaves them out anyway.
 */
export function resolveRendererFile(root: string, urlPath: string): Promise<string | null> {
  if (/\.map$/i.test(urlPath) || /\.map$/i.test(safeDecode(urlPath))) return Promise.resolve(null);
  return resolveInside(root, urlPath === '/' || urlPath === '' ? '/index.html' : urlPath);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A registered media file, if it is still the very file that was registered: it is resolved again at serve time,
 * so a symlink put in its place after registration (or a path that was swapped) serves nothing.
 */
export async function stillRegisteredFile(registered: string): Promise<{ path: string; size: number } | null> {
  try {
    const real = await realpath(registered);
    if (real !== registered) return null;
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size } : null;
  } catch {
    return null;
  }
}
