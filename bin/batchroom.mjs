#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader so that a fresh `npm install` leaves `npx batchroom` working with no
// build step (and never a stale build). Commands that process images first re-execute under the memory profile
// (memory-profile.mjs); quick ones (workflows, balance, key, help) start once.
import { relaunchWithMemoryProfile } from './memory-profile.mjs';

const IMAGE_COMMANDS = new Set(['run', 'resume', 'watch', 'ui']);
const args = process.argv.slice(2);
const relaunched = args.some((arg) => IMAGE_COMMANDS.has(arg)) && !args.includes('--help') && !args.includes('-h')
  ? await relaunchWithMemoryProfile()
  : null;
if (relaunched !== null) {
  process.exitCode = relaunched;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../main/cli/main.ts');
  process.exitCode = await main(args);
}
