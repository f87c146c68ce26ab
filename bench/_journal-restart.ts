// The restart half of bench/scale-journal.ts's recovery part: `batchroom resume` from one pinned CLI build in its
// own process group, kill -9 of that group, and the floor under a restart (a bare node start, the CLI's --version).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fetchSandboxStats } from '../test/helpers/sandbox';
import { parseStartTrace } from '../main/core/start-trace';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Service { url: string; apiKey: string }

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

export async function pinnedCliEntry(): Promise<string> {
  const { buildCli, freshCliEntry } = await import(pathToFileURL(join(REPO_ROOT, 'scripts/build-cli.mjs')).href) as { buildCli: () => Promise<{ entry: string }>; freshCliEntry: () => string | null };
  return freshCliEntry() ?? (await buildCli()).entry;
}

export interface Started {
  child: ChildProcess;
  startedAt: number;
  exited: Promise<void>;
  output: () => string;
  /** BATCHROOM_START_TRACE's steps (main/core/start-trace.ts), each in ms since this spawn. */
  trace: () => { step: string; ms: number }[];
}

/**
 * Submissions the kill cut off (unknown when the restarted command first reports the batch): the engine then holds
 * new submissions until balance evidence judged them (docs/engine.md), which is not recovery work.
 */
export function lostAtStart(output: string): number {
  const line = output.split('\n').find((l) => l.startsWith('{"type":"batch"'));
  if (!line) return 0;
  try {
    return Number((JSON.parse(line) as { counts?: { unknown?: number } }).counts?.unknown ?? 0);
  } catch {
    return 0;
  }
}

/** `batchroom resume` on `stateDir` against the sandbox, in its own process group (kill -9 reaches the re-exec too). */
export function startResume(stateDir: string, service: Service, cliEntry: string, nodeArgs: string[] = []): Started {
  const startedAt = performance.now();
  const startedAtEpoch = performance.timeOrigin + startedAt;
  const child = spawn(process.execPath, [...nodeArgs, 'bench/_pinned-cli.mjs', 'resume', '--json', '--state-dir', stateDir, '--service-url', service.url], {
    cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BATCHROOM_API_KEY: service.apiKey, BATCHROOM_STATE_DIR: stateDir, BENCH_CLI_ENTRY: cliEntry, BATCHROOM_START_TRACE: '1' },
  });
  let output = '';
  let traced = '';
  // What it printed first (NDJSON and notices): the batch as it found it, and why it ended if it sent nothing.
  const keep = (chunk: Buffer) => { if (output.length < 4000) output += chunk.toString().slice(0, 4000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (chunk: Buffer) => {
    keep(chunk);
    // The trace's lines come early and are few: kept whole (a line may straddle two chunks), the rest dropped.
    if (traced.length < 16_000) traced += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const trace = () => parseStartTrace(traced).map(({ step, atMs }) => ({ step, ms: atMs - startedAtEpoch }));
  return { child, startedAt, exited, output: () => output, trace };
}

export async function killGroup(started: Started): Promise<void> {
  if (started.child.exitCode === null && started.child.signalCode === null) {
    try { process.kill(-started.child.pid!, 'SIGKILL'); } catch { /* already gone */ }
  }
  await started.exited;
  // The whole group gone (the relaunched command too), as for a user whose shell prompt came back: until then its
  // engine lock is held and the restart would be refused.
  const deadline = performance.now() + 10_000;
  for (;;) {
    try { process.kill(-started.child.pid!, 0); } catch { return; }
    if (performance.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const executionsCreated = async (service: Service) => ((await fetchSandboxStats(service.url)) as { executionsCreated: number }).executionsCreated;

/** From `started` to the sandbox's next execution (polled every 5 ms); null if none within `timeoutMs`. */
export async function untilNextExecution(service: Service, started: Started, before: number, timeoutMs: number): Promise<number | null> {
  while (performance.now() - started.startedAt < timeoutMs) {
    if ((await executionsCreated(service)) > before) return performance.now() - started.startedAt;
    if (started.child.exitCode !== null) {
      process.stderr.write(`batchroom resume exited ${started.child.exitCode} before sending anything: ${started.output().slice(0, 1200)}\n`);
      return null;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return null;
}

/**
 * The floor under a restart on this machine now, in the same run: a bare `node -e 0`, the launcher's relaunch alone
 * (two Node starts, nothing loaded: bench/_two-starts.mjs), the pinned CLI's `--version` (its launcher, the
 * bundle's load) — medians of 3 (ms) — and the launcher's freshness check of the bundle (scripts/build-cli.mjs
 * freshCliEntry, in this process: median of 3). What a restart costs beyond these is its own.
 */
export async function bareStarts(cliEntry: string): Promise<{ nodeMs: number; twoStartsMs: number; cliVersionMs: number; freshCheckMs: number }> {
  const timeOf = async (args: string[]) => {
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: 'ignore', env: { ...process.env, BENCH_CLI_ENTRY: cliEntry } });
      await new Promise((r) => child.once('exit', r));
      times.push(performance.now() - t0);
    }
    return median(times);
  };
  const { freshCliEntry } = await import(pathToFileURL(join(REPO_ROOT, 'scripts/build-cli.mjs')).href) as { freshCliEntry: () => string | null };
  const checks: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    freshCliEntry();
    checks.push(performance.now() - t0);
  }
  return {
    nodeMs: await timeOf(['-e', '0']), twoStartsMs: await timeOf(['bench/_two-starts.mjs']),
    cliVersionMs: await timeOf(['bench/_pinned-cli.mjs', '--version']), freshCheckMs: median(checks),
  };
}

/** Per trace step, the median over `traces` of its ms since the spawn (steps in the order they first came). */
export function traceMedians(traces: { step: string; ms: number }[][]): { step: string; ms: number }[] {
  const order: string[] = [];
  const byStep = new Map<string, number[]>();
  for (const trace of traces) {
    for (const { step, ms } of trace) {
      if (!byStep.has(step)) { byStep.set(step, []); order.push(step); }
      byStep.get(step)!.push(ms);
    }
  }
  return order.map((step) => ({ step, ms: median(byStep.get(step)!) })).sort((a, b) => a.ms - b.ms);
}

