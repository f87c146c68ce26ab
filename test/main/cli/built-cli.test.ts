import { spawnSync } from 'node:child_process';
import { stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildCli, freshCliEntry } from '../../../scripts/build-cli.mjs';

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
});
