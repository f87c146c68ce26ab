#!/usr/bin/env node
// Bundles the command line (main/cli/main.ts) into dist/cli/ with esbuild, so `batchroom` starts without a
// TypeScript loader: one ESM entry plus lazily loaded chunks (a command's heavy parts — the engine, sharp, the
// sandbox, the web server — load only when it runs). Dependencies stay in node_modules.
// A manifest lists every source file that went in, with its size and modification time: bin/batchroom.mjs
// rebuilds (or falls back to the TypeScript sources) when any of them changed, so the built CLI is never stale.
// Run by `npm install` (prepare) and by bin/batchroom.mjs on the first start after a change. Each build goes into its
// own folder (dist/cli/build-<id>/) and `current.json` points at the newest: a CLI still running an older build
// keeps loading its chunks from where they were; builds older than a day are removed.
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = join(root, 'dist', 'cli');
const CURRENT = join(CLI_DIR, 'current.json');
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Dependencies bundled into the CLI instead of loaded from node_modules: Node's ESM loader resolves, reads and
 * compiles each of their files one by one (zod alone is ≈ 80 modules), which was most of a command's start before it
 * did anything. sharp is bundled for its JavaScript (with semver, detect-libc and its colour library: ≈ 60 CommonJS
 * files); its native binding is still loaded from node_modules by sharp's own require, pointed back at sharp's folder
 * (requireFromOriginalLocation). The rest stay external: native modules (libsql, keytar),
 * packages that find files next to their own (exiftool-vendored's Perl, heic-decode's WebAssembly), and pg, loaded
 * only by a studio ledger.
 */
export const BUNDLED = ['atomically', 'chokidar', 'cli-progress', 'commander', 'p-limit', 'sharp', 'ws', 'zod'];

/**
 * A bundled ES module that makes its own `require` with `createRequire(import.meta.url)` resolves relative paths
 * from where it was written, not from the bundle: sharp looks for a binding built from source at
 * `../src/build/Release/sharp-<platform>.node` (a user's own libvips) before its prebuilt `@img` package. Each such
 * call is pointed back at the module's original file, relative to the build folder, so the bundle finds what the
 * package would (and still does when the project folder moves).
 */
function requireFromOriginalLocation(outdir) {
  return {
    name: 'require-from-original-location',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async (args) => {
        const code = await readFile(args.path, 'utf8');
        if (!code.includes('createRequire(import.meta.url)')) return undefined;
        const original = relative(outdir, args.path).split(sep).join('/');
        const base = `new URL(${JSON.stringify(original)}, import.meta.url)`;
        return { contents: code.replaceAll('createRequire(import.meta.url)', `createRequire(${base})`), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

export async function buildCli() {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await mkdir(CLI_DIR, { recursive: true });
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const staging = join(CLI_DIR, `build-${id}`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'main/cli/main.ts' },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [requireFromOriginalLocation(staging)],
    external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})].filter((name) => !BUNDLED.includes(name)),
    // Some dependencies are CommonJS and call require(): give the ESM bundle one.
    banner: { js: "import { createRequire as __batchroomCreateRequire } from 'node:module'; const require = __batchroomCreateRequire(import.meta.url);" },
  });
  const inputs = [];
  // Bundled dependencies change only through npm, which rewrites the lockfile (and runs `prepare` again): two stats
  // instead of one per dependency file.
  const sources = Object.keys(result.metafile.inputs).filter((file) => !file.split('/').includes('node_modules'));
  for (const file of [...sources, 'package.json', 'package-lock.json']) {
    const info = await stat(join(root, file));
    inputs.push({ file, size: info.size, mtimeMs: info.mtimeMs });
  }
  const manifest = { builtAt: new Date().toISOString(), entry: join(`build-${id}`, 'main.mjs'), inputs };
  await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest));
  const temp = `${CURRENT}.${id}.tmp`;
  await writeFile(temp, JSON.stringify(manifest));
  await rename(temp, CURRENT);
  await removeOldBuilds(`build-${id}`);
  return { inputs: inputs.length, entry: join(CLI_DIR, manifest.entry) };
}

async function removeOldBuilds(keep) {
  for (const name of await readdir(CLI_DIR).catch(() => [])) {
    if (!name.startsWith('build-') || name === keep) continue;
    const info = await stat(join(CLI_DIR, name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > DAY_MS) await rm(join(CLI_DIR, name), { recursive: true, force: true });
  }
}

/**
 * The built CLI's entry when it exists and no source file that went into it has changed since, else null. It runs
 * before every command, so it is synchronous and reads no file contents: one stat per source (≈ 235 files, ≈ 7 ms;
 * 235 parallel async stats took ≈ 10–30 ms through libuv's thread pool), compared with the size and modification
 * time the manifest recorded at build time, as git's index does.
 */
export function freshCliEntry(cliDir = CLI_DIR, sourceRoot = root) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(cliDir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  for (const { file, size, mtimeMs } of manifest.inputs) {
    const info = statSync(join(sourceRoot, file), { throwIfNoEntry: false });
    if (!info || info.size !== size || info.mtimeMs !== mtimeMs) return null;
  }
  return join(cliDir, manifest.entry);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const { inputs } = await buildCli();
  process.stdout.write(`batchroom CLI built: ${inputs} sources → dist/cli/ in ${Math.round(performance.now() - started)} ms\n`);
}
