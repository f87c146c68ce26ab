// Issue 34, item 2 — "Memory stays flat": peak RSS of a 100k-photo batch ≤ 250 MB, and no growth with the number of
// items done. N = 100,000 × BENCH_SCALE small JPEGs (64×48, distinct bytes, cached under
// /tmp/batchroom-scale-fixtures), the sandbox in its own process (its memory is not the app's) with short executions.
// Two parts, each a fresh process under the hosts' memory profile (bin/memory-profile.mjs):
//   engine — the engine driven directly (bench/_memory-engine-child.ts), sampled every second by itself;
//   cli    — the real `batchroom --json run` (the built CLI, scripts/build-cli.mjs), sampled from /proc every second.
// Each prints peak RSS, RSS at start, and the RSS slope per 1,000 items finished between N/4 and N (what "flat"
// means), the goals beside them. The CLI's engine keeps the built-in request rate (40 requests/s: a submit, a status
// read and a download per photo), so by default it runs BENCH_MEMORY_CLI_SHARE (0.1) of N: a 100k batch through it
// takes over 40 minutes here; BENCH_MEMORY_CLI_SHARE=1 runs it whole. BENCH_MEMORY_ONLY=engine|cli runs one part.
// Last line: one JSON object of metrics.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { spawnSandbox, type SpawnedSandbox } from '../test/helpers/sandbox';
import { descendantsOf, mb, mbPer1k, peakOf, photoFixture, procMemory, slopePerItem, type MemorySample } from './_memory-samples';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const N = Math.max(10, Math.round(100_000 * SCALE));
const CLI_N = Math.max(10, Math.round(N * Number(process.env.BENCH_MEMORY_CLI_SHARE ?? '0.1')));
const CONCURRENCY = 32;
const PEAK_GOAL_MB = 250;
/** "Flat": each further 1,000 items may add at most this much RSS (≤ 15 MB over the last 75k of a 100k batch). */
const SLOPE_GOAL_MB_PER_1K = 0.2;
const only = process.env.BENCH_MEMORY_ONLY;
const root = join(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => loadavg()[0]!.toFixed(2);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface PartResult { peak: number; start: number; slope: number | null; heapSlope?: number | null; saved: number; total: number; runMs: number }

function report(part: string, count: number, r: PartResult, extra = ''): Record<string, number | null> {
  const slope = mbPer1k(r.slope);
  log(`${part}: ${count} photos, ${r.saved}/${r.total} saved in ${(r.runMs / 1000).toFixed(1)} s (load ${load()}): peak RSS ${mb(r.peak)} MB (goal ≤ ${PEAK_GOAL_MB}: ${verdict(mb(r.peak) <= PEAK_GOAL_MB)}), ` +
    `RSS at start ${mb(r.start)} MB, slope N/4→N ${slope ?? 'n/a'} MB per 1k items (goal ≤ ${SLOPE_GOAL_MB_PER_1K}: ${verdict(slope !== null && slope <= SLOPE_GOAL_MB_PER_1K)})${extra}`);
  return { [`${part}Items`]: count, [`${part}PeakRssMB`]: mb(r.peak), [`${part}StartRssMB`]: mb(r.start), [`${part}SlopeMBPer1k`]: slope, [`${part}Saved`]: r.saved };
}

function sandboxArgs(): string[] {
  return ['--duration-ms', '50', '--credits', '100000000', '--rate-limit', '1000000', '--max-concurrent', '256'];
}

async function enginePart(photos: string, sandbox: SpawnedSandbox): Promise<Record<string, number | null>> {
  // --expose-gc lets the child weigh what it retains at N/4 and at the end; the child adds the memory profile itself.
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, '_memory-engine-child.ts'), photos, String(N), sandbox.url, sandbox.apiKey, String(CONCURRENCY)],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 * 2 ** 20 });
  if (child.status !== 0) throw new Error(`engine child exited ${child.status}`);
  const r = JSON.parse(child.stdout.trim().split('\n').pop()!) as { startRss: number; samples: MemorySample[]; heapAtQuarter: number | null; heapAtEnd: number; saved: number; total: number; runMs: number; estimateMs: number; events: number };
  const heapSlope = slopePerItem(r.samples, N / 4, N, (s) => s.heapUsed);
  const retainedPer1k = r.heapAtQuarter === null ? null : mbPer1k((r.heapAtEnd - r.heapAtQuarter) / (N - N / 4));
  const metrics = report('engine', N, { peak: peakOf(r.samples), start: r.startRss, slope: slopePerItem(r.samples, N / 4, N), saved: r.saved, total: r.total, runMs: r.runMs },
    `; heap slope ${mbPer1k(heapSlope) ?? 'n/a'} MB per 1k, heap kept after a full GC at N/4 → end ${r.heapAtQuarter === null ? 'n/a' : mb(r.heapAtQuarter, 1)} → ${mb(r.heapAtEnd, 1)} MB (${retainedPer1k ?? 'n/a'} MB per 1k); estimate ${(r.estimateMs / 1000).toFixed(1)} s, ${r.events} progress events`);
  if (r.saved !== N) throw new Error(`engine: ${r.saved} of ${N} photos saved`);
  return { ...metrics, engineHeapSlopeMBPer1k: mbPer1k(heapSlope), engineRetainedHeapMBPer1k: retainedPer1k, engineRetainedHeapEndMB: mb(r.heapAtEnd, 1) };
}

/** The real command; its process (the memory profile's relaunch, under the wrapper) read from /proc every second. */
async function cliPart(photos: string, sandbox: SpawnedSandbox, work: string): Promise<Record<string, number | null>> {
  const state = join(work, 'cli-state');
  await mkdir(state, { recursive: true });
  // The Settings value a user with a fast service would choose (concurrency is a setting, not a flag).
  await writeFile(join(state, 'settings.json'), JSON.stringify({ concurrency: CONCURRENCY }));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('BATCHROOM_')) env[k] = v;
  Object.assign(env, { BATCHROOM_STATE_DIR: state, BATCHROOM_API_KEY: sandbox.apiKey, DISPLAY: '' });
  const args = ['bin/batchroom.mjs', '--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--recursive', '--out', join(work, 'cli-out'), photos];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const samples: MemorySample[] = [];
  let done = 0;
  let summary: { saved: number; failed: number; skipped: number } | null = null;
  let startRss: number | null = null;
  let hwm = 0;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const record = JSON.parse(line) as { type: string; counts?: Record<string, number>; saved?: number; failed?: number; skipped?: number };
    if (record.type === 'progress' && record.counts) done = ['saved', 'failed', 'skipped', 'cancelled', 'unknown', 'charged-no-result'].reduce((s, k) => s + (record.counts![k] ?? 0), 0);
    if (record.type === 'summary') summary = record as typeof summary;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => { running = false; });
  while (running) {
    // The command is the wrapper's child (bin/memory-profile.mjs): the deepest Node process of the group.
    const pid = (await descendantsOf(child.pid!)).at(-1);
    const m = pid === undefined ? null : await procMemory(pid);
    if (m) {
      startRss ??= m.rss;
      hwm = Math.max(hwm, m.hwm);
      samples.push({ done, rss: m.rss });
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 1_000))]);
  }
  const code = await exited;
  const runMs = performance.now() - started;
  const got = summary as { saved: number } | null;
  const result = { peak: Math.max(hwm, peakOf(samples)), start: startRss ?? 0, slope: slopePerItem(samples, CLI_N / 4, CLI_N), saved: got?.saved ?? 0, total: CLI_N, runMs };
  const metrics = report('cli', CLI_N, result, `; exit ${code}, kernel's high-water mark ${mb(hwm)} MB`);
  if (code !== 0 || !got || got.saved !== CLI_N) throw new Error(`cli: exit ${code}, summary ${JSON.stringify(got)}, expected ${CLI_N} saved`);
  return metrics;
}

const work = await mkdtemp(join(tmpdir(), 'batchroom-scale-memory-'));
const metrics: Record<string, number | null> = { items: N };
let sandbox: SpawnedSandbox | null = null;
try {
  log(`scale-memory: N = ${N} (BENCH_SCALE ${SCALE}), concurrency ${CONCURRENCY}, sandbox executions 50 ms in their own process; load ${load()}`);
  // The CLI bundle is built before anything is measured (bin/batchroom.mjs builds it on a first start after a change).
  spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'ignore' });
  if (!only || only === 'engine') {
    const photos = await photoFixture(N);
    sandbox = await spawnSandbox(sandboxArgs(), { timeoutMs: 120_000 });
    Object.assign(metrics, await enginePart(photos, sandbox));
    await sandbox.kill();
    sandbox = null;
  }
  if (!only || only === 'cli') {
    const photos = await photoFixture(CLI_N);
    sandbox = await spawnSandbox(sandboxArgs(), { timeoutMs: 120_000 });
    Object.assign(metrics, await cliPart(photos, sandbox, work));
  }
} finally {
  await sandbox?.kill();
  await rm(work, { recursive: true, force: true });
}
log(JSON.stringify(metrics));
