#!/usr/bin/env node
// `npm run bench`: runs every bench/*.ts (or the ones named on the command line) one after another, each in its own
// process so one benchmark's heap and event loop cannot colour the next. Each bench prints ratios measured in its
// own run and ends with one JSON line of metrics; this runner gathers those lines into one summary.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', 'bench');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

const summary = {};
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== bench/${file}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(run.stdout);
  const last = run.stdout.trim().split('\n').pop() ?? '';
  try {
    summary[file.replace(/\.ts$/, '')] = JSON.parse(last);
  } catch {
    summary[file.replace(/\.ts$/, '')] = { error: `exit ${run.status}, no JSON metrics line` };
  }
  if (run.status !== 0) failed += 1;
}
process.stdout.write(`\n${JSON.stringify(summary)}\n`);
process.exitCode = failed > 0 ? 1 : 0;
