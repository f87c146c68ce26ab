import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository (or installed package) root: the nearest folder above this module with a package.json — two levels
 * above main/host/ when run from the sources, three above dist/cli/build-…/ when run from the built CLI.
 */
export const PACKAGE_ROOT = packageRootAbove(dirname(fileURLToPath(import.meta.url)));

function packageRootAbove(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return join(start, '..', '..');
  }
}

export function defaultRendererDir(): string {
  return join(PACKAGE_ROOT, 'dist', 'renderer');
}

/**
 * A fresh checkout has no built renderer. Build it once with vite (a few seconds) when the sources are there, and
 * say so on stderr; when that is impossible the host serves a page explaining how to build it instead.
 */
export function ensureRendererBuilt(rendererDir: string, say: (line: string) => void): boolean {
  if (existsSync(join(rendererDir, 'index.html'))) return true;
  if (!existsSync(join(PACKAGE_ROOT, 'vite.config.ts')) || !existsSync(join(PACKAGE_ROOT, 'renderer', 'index.html'))) return false;
  say('batchroom: building the interface (first run, `npx vite build`)…');
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return result.status === 0 && existsSync(join(rendererDir, 'index.html'));
}
