// CLI start-up: `batchroom --help` from the built CLI (dist/cli/, scripts/build-cli.mjs) against the TypeScript
// sources through tsx (BATCHROOM_CLI_FROM_SOURCE=1), in the same run — goal: the built one ≤ 0.3 s. Medians of 7.
// Last line: one JSON object of metrics.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

function median(env: NodeJS.ProcessEnv, args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, ['bin/batchroom.mjs', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`batchroom ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[3]!;
}

// The first start after a change builds: not part of the figure.
spawnSync(process.execPath, ['bin/batchroom.mjs', '--version'], { cwd: root });
const built = median({}, ['--help']);
const source = median({ BATCHROOM_CLI_FROM_SOURCE: '1' }, ['--help']);
log(`cli start: --help ${Math.round(built)} ms built vs ${Math.round(source)} ms from the sources → ${(built / source).toFixed(2)} of the time (goal ≤ 300 ms)`);
log(JSON.stringify({ cliHelpBuiltMs: Math.round(built), cliHelpSourceMs: Math.round(source), cliBuiltOverSource: Number((built / source).toFixed(3)) }));
