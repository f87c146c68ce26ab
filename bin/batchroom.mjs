#!/usr/bin/env node
// The `batchroom` command. It runs the CLI bundled in dist/cli/ (scripts/build-cli.mjs: built at `npm install`, and
// again here on the first start after a source file changed, so it is never stale); if it cannot be built, it runs
// the TypeScript sources through tsx's loader instead (slower to start, same behaviour). BATCHROOM_CLI_FROM_SOURCE=1
// forces the sources.
// The first line stays plain `env node`: it is the one form every launcher reads — the kernel with any `env`
// (BusyBox has no `-S`), and npm's Windows shims (its sh shim for Git Bash turns `env -S VAR=… node` into
// `exec VAR=… node`, which fails). So the commands that process images re-execute once under the engine's memory
// profile (memory-profile.mjs), which costs a second Node start (≈ 70 ms here); quick ones (workflows, balance, key,
// help) never do.
import { pathToFileURL } from 'node:url';
import { relaunchWithMemoryProfile } from './memory-profile.mjs';
import { traceLauncher } from './start-trace.mjs';

const IMAGE_COMMANDS = new Set(['run', 'resume', 'watch', 'ui']);
const args = process.argv.slice(2);
// BATCHROOM_START_TRACE=1 (main/core/start-trace.ts): the first process's start, then the worker's.
if (process.env.BATCHROOM_MEMORY_PROFILE !== '1') traceLauncher('launcher', performance.timeOrigin);
const relaunched = args.some((arg) => IMAGE_COMMANDS.has(arg)) && !args.includes('--help') && !args.includes('-h')
  ? await relaunchWithMemoryProfile()
  : null;

async function builtMain() {
  if (process.env.BATCHROOM_CLI_FROM_SOURCE === '1') return null;
  try {
    const { buildCli, freshCliEntry } = await import('../scripts/build-cli.mjs');
    const entry = freshCliEntry() ?? (await buildCli()).entry;
    traceLauncher('fresh-checked');
    const { main } = await import(pathToFileURL(entry).href);
    traceLauncher('bundle-loaded');
    return main;
  } catch {
    return null; // no esbuild (or no write access to dist/): run from the sources
  }
}

async function sourceMain() {
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../main/cli/main.ts')).main;
}

if (relaunched !== null) {
  process.exitCode = relaunched;
} else {
  traceLauncher('worker', performance.timeOrigin);
  const main = (await builtMain()) ?? (await sourceMain());
  process.exitCode = await main(args);
}
