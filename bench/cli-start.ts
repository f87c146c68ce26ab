// Start-up, in one run (medians): `batchroom --help` from the built CLI (dist/cli/, scripts/build-cli.mjs) against
// the TypeScript sources through tsx (BATCHROOM_CLI_FROM_SOURCE=1) — goal: built ≤ 0.3 s; a one-photo
// `batchroom run` from spawn to the sandbox receiving its first execute (submit) — goal ≤ 0.6 s; and the app in the
// browser host from launch to the workflow catalog on screen in Chromium — goal ≤ 1 s (bench/_app-start.ts).
// BENCH_CLI_ONLY=help|run|app runs one part. Each figure is printed with the load average it was measured at.
// Last line: one JSON object of metrics.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { measureAppStart } from './_app-start';
import { measureRunStart } from './_run-start';

const root = join(import.meta.dirname, '..');
const only = process.env.BENCH_CLI_ONLY;
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const ms = (value: number) => Math.round(value);
const metrics: Record<string, number> = {};

function helpMedian(env: NodeJS.ProcessEnv, args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    const run = spawnSync(join(root, 'bin/batchroom.mjs'), args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`batchroom ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

// The first start after a change builds: not part of any figure.
spawnSync(process.execPath, ['bin/batchroom.mjs', '--version'], { cwd: root });

if (!only || only === 'help') {
  const built = helpMedian({}, ['--help']);
  const source = helpMedian({ BATCHROOM_CLI_FROM_SOURCE: '1' }, ['--help']);
  log(`cli start: --help ${ms(built)} ms built vs ${ms(source)} ms from the sources → ${(built / source).toFixed(2)} of the time (goal ≤ 300 ms; ${load()})`);
  Object.assign(metrics, { cliHelpBuiltMs: ms(built), cliHelpSourceMs: ms(source), cliBuiltOverSource: Number((built / source).toFixed(3)) });
}

if (!only || only === 'run') {
  for (const [name, width, height] of [['small', 640, 480], ['12mp', 4000, 3000]] as const) {
    const { submitMs, exitMs } = await measureRunStart(root, { runs: 5, width, height });
    log(`cli start: one-photo run (${width}×${height} JPEG) → first submit ${ms(median(submitMs))} ms (${submitMs.map(ms).join(', ')}), ` +
      `result saved and exited ${ms(median(exitMs))} ms (goal: submit ≤ 600 ms; ${load()})`);
    metrics[`runFirstSubmitMs_${name}`] = ms(median(submitMs));
    metrics[`runExitMs_${name}`] = ms(median(exitMs));
  }
}

if (!only || only === 'app') {
  const app = await measureAppStart({ runs: 3 });
  log(`app start (browser host): launch → catalog visible ${ms(median(app.catalogMs))} ms (${app.catalogMs.map(ms).join(', ')}); ` +
    `host ready (URL printed) ${ms(median(app.readyMs))} ms, page loaded ${ms(median(app.loadedMs))} ms (goal: catalog ≤ 1000 ms; ${load()})`);
  Object.assign(metrics, { appCatalogMs: ms(median(app.catalogMs)), appHostReadyMs: ms(median(app.readyMs)), appPageLoadedMs: ms(median(app.loadedMs)) });
}

metrics.loadAverage1m = Number(loadavg()[0]!.toFixed(2));
log(JSON.stringify(metrics));
