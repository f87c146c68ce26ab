#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader so that a fresh `npm install` leaves `npx batchroom` working with no
// build step (and never a stale build).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../main/cli/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
