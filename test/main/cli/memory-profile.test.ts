import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hasMemoryProfile, MEMORY_ENV, MEMORY_NODE_FLAGS } from '../../../bin/memory-profile.mjs';

// The memory profile hosts apply themselves: a process started plainly re-executes once under it, and one that
// already has it (or whose user chose the settings) goes on.

let dir: string;
// npm's own shim writer (untyped CommonJS): writes <to> (sh), <to>.cmd and <to>.ps1 for the script <from>.
const cmdShim = createRequire(import.meta.url)('cmd-shim') as (from: string, to: string) => Promise<void>;
const profile = fileURLToPath(new URL('../../../bin/memory-profile.mjs', import.meta.url));
const command = fileURLToPath(new URL('../../../bin/batchroom.mjs', import.meta.url));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-memprof-'));
  await writeFile(join(dir, 'probe.mjs'), `
    import { getHeapStatistics } from 'node:v8';
    import { relaunchWithMemoryProfile } from ${JSON.stringify(profile)};
    const code = await relaunchWithMemoryProfile();
    if (code !== null) process.exit(code);
    console.log(JSON.stringify({ relaunched: process.env.BATCHROOM_MEMORY_PROFILE ?? null, arenas: process.env.MALLOC_ARENA_MAX ?? null, mmap: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, heapMB: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20), args: process.argv.slice(2) }));
    process.exit(7);
  `);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('memory profile', () => {
  it.each<[string, NodeJS.ProcessEnv, string[], boolean]>([
    ['a plain start', {}, [], false],
    ['the relaunched process (marker)', { BATCHROOM_MEMORY_PROFILE: '1' }, [], true],
    ['settings the user chose', { ...MEMORY_ENV, NODE_OPTIONS: MEMORY_NODE_FLAGS.join(' ') }, [], true],
    ['flags without the allocator setting', {}, MEMORY_NODE_FLAGS, Object.keys(MEMORY_ENV).length === 0],
  ])('%s', (_what, env, execArgv, expected) => {
    expect(hasMemoryProfile(env, execArgv)).toBe(expected);
  });

  it('re-executes a plain start once under the profile, passing arguments and the exit code through', () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MALLOC_') && k !== 'NODE_OPTIONS' && k !== 'BATCHROOM_MEMORY_PROFILE'));
    const run = spawnSync(process.execPath, [join(dir, 'probe.mjs'), 'a b', '--x'], { env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(7);
    const seen = JSON.parse(run.stdout.trim()) as { arenas: string | null; mmap: string | null; heapMB: number; args: string[] };
    expect(seen.args).toEqual(['a b', '--x']);
    expect(seen.arenas).toBe(MEMORY_ENV.MALLOC_ARENA_MAX ?? null);
    expect(seen.mmap).toBe(MEMORY_ENV.MALLOC_MMAP_THRESHOLD_ ?? null);
    // --max-old-space-size=192 caps the heap near 192 MB (plus the young generation); Node's default is far larger.
    expect(seen.heapMB).toBeLessThan(260);
  });

  it('the batchroom command starts through every launcher: its first line is plain env node', async () => {
    // What npm links on Windows (cmd-shim, the same version npm 11 bundles): the sh shim Git Bash and MSYS2 run, a
    // .cmd and a .ps1, all read from the first line. `env -S VAR=… node …` there made the sh shim `exec VAR=…` (127).
    expect(readFileSync(command, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const shim = join(dir, 'shim', 'batchroom');
    await cmdShim(command, shim);
    const run = spawnSync('sh', [shim, '--version'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(readFileSync(`${shim}.cmd`, 'utf8')).toMatch(/"%_prog%" {2}"%dp0%\\.*batchroom\.mjs" %\*/);
  });
});
