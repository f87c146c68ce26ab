import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildCli, CLI_DIR, freshCliEntry } from '../../../scripts/build-cli.mjs';

// `batchroom` runs a bundled CLI (dist/cli/) that is rebuilt as soon as any source that went into it changes, so the
// command that starts fast is never an old one; the TypeScript sources remain the fallback.

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

describe('built CLI', () => {
  it('is fresh after a build, stale once a source it was built from changes, and fresh again after a rebuild', async () => {
    const { entry } = (await buildCli()) as { entry: string };
    expect(await freshCliEntry()).toBe(entry);
    const source = join(ROOT, 'main', 'cli', 'exit-codes.ts');
    const before = await stat(source);
    try {
      await utimes(source, before.atime, new Date(before.mtimeMs + 5_000));
      expect(await freshCliEntry()).toBeNull();
      const rebuilt = (await buildCli()) as { entry: string };
      expect(await freshCliEntry()).toBe(rebuilt.entry);
    } finally {
      await utimes(source, before.atime, before.mtime);
    }
  });

  it('the built and the source CLI print the same help and version', () => {
    const run = (env: NodeJS.ProcessEnv, ...args: string[]) => spawnSync(process.execPath, ['bin/batchroom.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
    for (const args of [['--help'], ['--version'], ['run', '--help']]) {
      const built = run({}, ...args);
      const source = run({ BATCHROOM_CLI_FROM_SOURCE: '1' }, ...args);
      expect(built.status, built.stderr).toBe(0);
      expect(built.stdout).toBe(source.stdout);
    }
  });

  it('the staleness check compares each source with its recorded size and modification time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'batchroom-fresh-'));
    try {
      const source = join(dir, 'a.ts');
      await writeFile(source, 'export const a = 1;\n');
      const info = await stat(source);
      await writeFile(join(dir, 'current.json'), JSON.stringify({ entry: 'build-x/main.mjs', inputs: [{ file: 'a.ts', size: info.size, mtimeMs: info.mtimeMs }] }));
      expect(freshCliEntry(dir, dir)).toBe(join(dir, 'build-x', 'main.mjs'));
      await writeFile(source, 'export const a = 12;\n'); // another size
      await utimes(source, info.atime, info.mtime);
      expect(freshCliEntry(dir, dir)).toBeNull();
      await writeFile(source, 'export const a = 2;\n'); // same size, touched
      await utimes(source, info.atime, new Date(info.mtimeMs + 1_000));
      expect(freshCliEntry(dir, dir)).toBeNull();
      await rm(source);
      expect(freshCliEntry(dir, dir)).toBeNull();
      await rm(join(dir, 'current.json'));
      expect(freshCliEntry(dir, dir)).toBeNull(); // never built: bin/batchroom.mjs builds
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('defining the commands (all --help needs) loads neither zod, the progress bars nor the engine', async () => {
    expect(freshCliEntry()).not.toBeNull(); // built by the first test
    const manifest = JSON.parse(await readFile(join(CLI_DIR, 'current.json'), 'utf8')) as { entry: string };
    const folder = join(CLI_DIR, manifest.entry, '..');
    const loaded = new Set<string>();
    const packages = new Set<string>();
    const bundled = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const code = await readFile(join(folder, file), 'utf8');
      // esbuild heads each bundled module with its path: the packages inlined into this file.
      for (const [, name] of code.matchAll(/^\/\/ \S*node_modules\/((?:@[^/]+\/)?[^/\s]+)/gm)) bundled.add(name!);
      // Static imports only: a command's heavy parts are import() calls, loaded when it runs.
      for (const [, from, bare] of code.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms)) {
        const target = (from ?? bare)!;
        if (target.startsWith('./')) await visit(target.slice(2));
        else packages.add(target);
      }
    };
    await visit('main.mjs');
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
    expect([...bundled]).toEqual(['commander']);
    // What --help parses: commander (≈ 110 KB) and the commands' definitions, not the app (the build is ≈ 7 MB). By
    // bytes, not by file count: esbuild splits shared modules into small chunks, and how many says nothing of the cost.
    let bytes = 0;
    for (const file of loaded) bytes += (await readFile(join(folder, file))).byteLength;
    expect(bytes).toBeLessThan(300_000);
  });

  it("a bundled package's own require resolves from the package's folder, as unbundled (sharp's source-built binding)", async () => {
    expect(freshCliEntry()).not.toBeNull();
    const manifest = JSON.parse(await readFile(join(CLI_DIR, 'current.json'), 'utf8')) as { entry: string };
    const folder = join(CLI_DIR, manifest.entry, '..');
    const bases: string[] = [];
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.mjs'))) {
      const lines = (await readFile(join(folder, file), 'utf8')).split('\n');
      // Line 1 is the banner's require for bundled CommonJS (bare names resolve the same from any folder inside root);
      // our own code may resolve a bare package name the same way (the HEIC worker's decoder), never a relative path.
      const relativeFromBundle = (line: string) => line.includes('createRequire(import.meta.url)') && !/createRequire\(import\.meta\.url\)\.resolve\("[^./][^"]*"\)/.test(line);
      expect(lines.slice(1).filter(relativeFromBundle), file).toEqual([]);
      for (const line of lines) {
        for (const [, original] of line.matchAll(/createRequire\d*\(new URL\("([^"]+)", import\.meta\.url\)\)/g)) {
          bases.push(fileURLToPath(new URL(original!, pathToFileURL(join(folder, file)))));
        }
      }
    }
    expect(bases).toContain(join(ROOT, 'node_modules', 'sharp', 'dist', 'sharp.mjs'));
    for (const base of bases) expect(existsSync(base), base).toBe(true);
    // sharp's relative requires (its binding built from source is '../src/build/Release/…') land in its own folder.
    const sharpRequire = createRequire(bases.find((base) => base.endsWith('sharp.mjs'))!);
    expect(sharpRequire.resolve('../package.json')).toBe(join(ROOT, 'node_modules', 'sharp', 'package.json'));
  });
});

