import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

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

export function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
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
