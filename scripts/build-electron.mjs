#!/usr/bin/env node
// Bundles the Electron main process and the preload with esbuild:
//   main/electron/entry.ts → dist/electron/main.cjs    (Node/Electron main; dependencies stay in node_modules)
//   preload/index.ts       → dist/electron/preload.cjs (one self-contained file: a sandboxed preload can only
//                                                       require `electron`, so zod and the contract are inlined)
// `npm run build` runs `vite build` (the renderer, dist/renderer/) first; `--renderer` makes this script do it too.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Conservative targets: Electron 45's own Node and Chromium are newer than both.
const ELECTRON_NODE_TARGET = 'node22';
const ELECTRON_CHROME_TARGET = 'chrome130';

/**
 * ESM-only packages are bundled: a CommonJS main can `require()` them only on Node ≥ 20.19/22.12, and even then
 * their default export arrives as a namespace object (`ElectronStore is not a constructor`). Everything else stays
 * external (electron-builder packs node_modules): native modules (sharp, libsql, keytar) must load from disk.
 */
export const BUNDLED_ESM_ONLY = ['atomically', 'chokidar', 'electron-store', 'p-limit'];
export const MAIN_EXTERNALS = ['electron', ...Object.keys(pkg.dependencies ?? {}).filter((name) => !BUNDLED_ESM_ONLY.includes(name))];

export async function buildElectron({ outDir = join(root, 'dist', 'electron'), minify = false } = {}) {
  const common = { bundle: true, sourcemap: true, minify, logLevel: 'warning', absWorkingDir: root, legalComments: 'none' };
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(root, 'main/electron/entry.ts')],
      outfile: join(outDir, 'main.cjs'),
      platform: 'node',
      format: 'cjs',
      target: ELECTRON_NODE_TARGET,
      external: MAIN_EXTERNALS,
      // Our own modules may use import.meta.url; in a CommonJS bundle it is derived from __filename.
      define: { 'import.meta.url': '__batchroomImportMetaUrl', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
      banner: { js: "const __batchroomImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
    build({
      ...common,
      entryPoints: [join(root, 'preload/index.ts')],
      outfile: join(outDir, 'preload.cjs'),
      // Parsed on every window load; zod makes up most of it.
      minify: true,
      platform: 'browser',
      format: 'cjs',
      target: ELECTRON_CHROME_TARGET,
      external: ['electron'],
    }),
  ]);
  return { main: join(outDir, 'main.cjs'), preload: join(outDir, 'preload.cjs') };
}

export function buildRenderer() {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = new Set(process.argv.slice(2));
  try {
    if (args.has('--renderer')) buildRenderer();
    const out = await buildElectron({ minify: args.has('--minify') });
    console.log(`built ${out.main} and ${out.preload}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
