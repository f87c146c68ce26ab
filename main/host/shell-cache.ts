import { lstatSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { contentTypeFor } from '../core/media/content-types';
import { candidateInside, isWithin } from '../core/media/inside-root';

/**
 * The app shell (index.html and the scripts and styles it names), read into memory when the host starts. The page is
 * requested while the core is still loading (sharp, the journal, the sandbox) on the same thread: a file streamed
 * from disk needs a turn of the event loop for every step (realpath, stat, open, each 64 KB read), each of which
 * waited behind that loading, and the 485 KB script arrived ≈ 0.5–1 s late. From memory each file is one write in
 * the turn its request arrives in.
 *
 * Never stale: before a cached file is served its path is resolved again (realpath, lstat: two system calls) and it
 * must still lead to the very file that was read — a regular file, same inode, size and modification time. Anything
 * else (a rebuilt renderer, a swapped file or folder) takes the ordinary route from disk with its checks.
 */
export interface ShellCache {
  /** The cached bytes for a URL path, if that file is unchanged since it was read; else null. */
  fresh(urlPath: string): { body: Buffer; contentType: string } | null;
  readonly paths: readonly string[];
}

interface Entry {
  /** Where the URL path leads (`rendererDir` + path) and the real file that was read from there. */
  candidate: string;
  path: string;
  body: Buffer;
  contentType: string;
  stats: Pick<Stats, 'ino' | 'size' | 'mtimeMs'>;
}

/** Larger files are left to the disk route (the shell is ≈ 0.5 MB; nothing big is held for the host's lifetime). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const INDEX = '/index.html';

/** The local files an HTML page loads: `src`/`href` of its script and link tags, as URL paths from the root. */
export function shellReferences(html: string, base = '/'): string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const ref = /\b(?:src|href)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!ref || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(ref)) continue; // another origin or a data: URL
    try {
      found.add(new URL(ref, `http://shell${base}`).pathname);
    } catch {
      /* not a URL: nothing to load */
    }
  }
  return [...found];
}

function readEntry(rendererDir: string, realRoot: string, urlPath: string): Entry | null {
  // The same rules as the disk route (resolveRendererFile): inside the renderer folder on its real path, never a map.
  const candidate = candidateInside(rendererDir, urlPath);
  if (!candidate || /\.map$/i.test(candidate)) return null;
  const path = realpathSync.native(candidate);
  if (!isWithin(realRoot, path)) return null;
  const before = lstatSync(path);
  if (!before.isFile() || before.size > MAX_FILE_BYTES) return null;
  const body = readFileSync(path);
  const after = lstatSync(path);
  // Written while it was read: leave it to the disk route.
  if (after.ino !== before.ino || after.size !== body.length || after.mtimeMs !== before.mtimeMs) return null;
  return { candidate, path, body, contentType: contentTypeFor(path), stats: { ino: after.ino, size: after.size, mtimeMs: after.mtimeMs } };
}

/**
 * Reads index.html and what it references — synchronously (three small files, ≈ 1 ms): awaiting file operations
 * here would wait behind the core's loading, which starts at the same time. A missing or unreadable renderer gives
 * an empty cache (the disk route then says why).
 */
export function loadShellCache(rendererDir: string): ShellCache {
  const entries = new Map<string, Entry>();
  try {
    const realRoot = realpathSync.native(rendererDir);
    const index = readEntry(rendererDir, realRoot, INDEX);
    if (index) {
      entries.set(INDEX, index);
      for (const ref of shellReferences(index.body.toString('utf8'))) {
        try {
          const entry = readEntry(rendererDir, realRoot, ref);
          if (entry) entries.set(ref, entry);
        } catch {
          /* missing: the disk route answers 404 */
        }
      }
    }
  } catch {
    entries.clear();
  }
  return {
    paths: [...entries.keys()],
    fresh(urlPath) {
      const entry = entries.get(urlPath === '/' ? INDEX : urlPath);
      if (!entry) return null;
      try {
        if (realpathSync.native(entry.candidate) !== entry.path) return null;
        const now = lstatSync(entry.path);
        if (!now.isFile() || now.ino !== entry.stats.ino || now.size !== entry.stats.size || now.mtimeMs !== entry.stats.mtimeMs) return null;
      } catch {
        return null;
      }
      return { body: entry.body, contentType: entry.contentType };
    },
  };
}
