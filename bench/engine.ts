// Engine benchmark, against the sandbox in its own process (as in real use). Four figures from the issue:
//   1. wall time / ideal (N·L/C) for N=500 items, C=8 in flight, L=2 s per execution   — goal ≤ 1.03 (also at
//      L=10 s, and at C=2), with where the time goes per execution (phase-times.ts)
//   2. upload bytes / original bytes for 24 MP JPEGs sent for a 2K result               — goal ≤ 0.10 at SSIM ≥ 0.98
//   3. peak RSS of the engine process over 1,000 × 24 MP inputs, default settings      — goal ≤ 200 MB
//   4. status requests per execution at L=10 s, and how late completion is seen         — goal ≤ 6, ≤ max(1 s, L/10)
// Sizes can be shrunk for a quick look: BENCH_ENGINE_SCALE=0.1; one part only: BENCH_ENGINE_ONLY=memory (poll, upload,
// throughput, memory); extra node flags for the memory child: CHILD_FLAGS. Last line: one JSON object of metrics.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { BatchSpecInput } from '../shared/engine/model';
import { createEngine, type Engine } from '../main/core/engine';
import { openJournal, type Journal } from '../main/core/journal';
import { createServiceClient } from '../main/core/service';
import { spawnSandbox, type SpawnedSandbox } from '../test/helpers/sandbox';
import { relaunchWithMemoryProfile } from '../bin/memory-profile.mjs';
import { encodeForUpload } from '../main/core/images/encode';
import { lumaOf, ssim } from '../main/core/images/upload-jpeg';
import { phaseBreakdown, sandboxTimings } from './_engine-timing';

const SCALE = Number(process.env.BENCH_ENGINE_SCALE ?? '1');
const scaled = (n: number) => Math.max(8, Math.round(n * SCALE));
const round = (value: number, digits = 3) => Number(value.toFixed(digits));
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Rig { sandbox: SpawnedSandbox; journal: Journal; engine: Engine; root: string; close: () => Promise<void> }

async function rig(durationMs: number, concurrency: number): Promise<Rig> {
  const sandbox = await spawnSandbox(['--duration-ms', String(durationMs), '--credits', '10000000', '--rate-limit', '100000', '--max-concurrent', '64']);
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-engine-'));
  const journal = openJournal(join(root, 'state'));
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const engine = createEngine({ journal, client, concurrency, requestsPerSecond: 200, ...(process.env.ENC ? { encodeConcurrency: Number(process.env.ENC) } : {}) });
  await engine.start();
  return {
    sandbox, journal, engine, root,
    close: async () => {
      await engine.stop({ graceful: false });
      journal.close();
      await sandbox.kill();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function runToEnd(engine: Engine, spec: BatchSpecInput, onTick?: () => void): Promise<{ batchId: string; wallMs: number; startedAt: number; endedAt: number; estimateMs: number }> {
  // As in the app and the CLI: the cost summary (the estimate) is shown first, and the batch's clock starts at Start.
  const estimating = performance.now();
  await engine.estimate(spec);
  const estimateMs = Math.round(performance.now() - estimating);
  const started = performance.now();
  const startedAt = Date.now();
  const { id } = await engine.createBatch(spec);
  for (;;) {
    onTick?.();
    const batch = engine.getBatch(id);
    if (batch.state === 'completed' && !engine.busy()) break;
    if (batch.state === 'paused') throw new Error(`batch paused: ${batch.pausedReason}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const batch = engine.getBatch(id);
  if (batch.counts.saved !== batch.total - batch.counts.skipped) throw new Error(`not every item saved: ${JSON.stringify(batch.counts)}`);
  return { batchId: id, wallMs: performance.now() - started, startedAt, endedAt: Date.now(), estimateMs };
}

const spec = (input: string, output: string, extra: Partial<BatchSpecInput> = {}): BatchSpecInput => ({
  workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: output }, ...extra,
});

/** N small photos whose bytes all differ: flat colours alone can quantise to identical JPEGs, which the engine
 * rightly deduplicates — and a bench that counts them as work would read better than the truth. */
async function smallPhotos(folder: string, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    const colour = { r: i % 256, g: Math.floor(i / 256) % 256, b: (i * 7) % 256 };
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } }).jpeg().toBuffer();
    await writeFile(join(folder, `p${i}.jpg`), uniqueCopy(jpeg, i));
  }
  // A shoot's photos have been on disk a while: the planner reads a file changed in the last 2 s again at Start
  // (main/core/images/file-facts.ts), which only a just-written bench folder would otherwise pay.
  await new Promise((r) => setTimeout(r, 2_100));
}

/** Photo-like content (smooth noise), so JPEG sizes resemble a camera's rather than a flat colour's or pure noise's. */
async function photoLike(width: number, height: number, quality: number): Promise<Buffer> {
  const small = await sharp({ create: { width: Math.ceil(width / 8), height: Math.ceil(height / 8), channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png().toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 12 } } }).raw().toBuffer();
  const base = await sharp(small).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + grain[i]! - 128));
  return sharp(base, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

/** Same pixels, different bytes: a COM segment right after SOI makes each copy's content hash unique. */
function uniqueCopy(jpeg: Buffer, n: number): Buffer {
  const text = Buffer.from(`batchroom bench copy ${n}`);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, text, jpeg.subarray(2)]);
}

/**
 * The service-bound ratio at the issue's three points: L=2 s and C=8 (N=500), L=10 s (N=104), C=2 (N=100). The
 * shorter runs use a whole number of rounds (N a multiple of C), so N·L/C is reachable: 100 on 8 slots is 13 rounds,
 * 130 s, and would read 1.04 however fast the engine; N=500 keeps the issue's size (62.5 rounds: 1.008 at best).
 */
async function throughputs(): Promise<Record<string, number>> {
  const main = await throughput(scaled(500), 8, 2000, '');
  const long = await throughput(Math.ceil(scaled(100) / 8) * 8, 8, 10_000, 'L10s');
  const narrow = await throughput(scaled(100), 2, 2000, 'C2');
  return { ...main, wallOverIdealL10s: long.wallOverIdealL10s!, meanSeenLateMsL10s: long.meanSeenLateMsL10s!, wallOverIdealC2: narrow.wallOverIdealC2!, meanSeenLateMsC2: narrow.meanSeenLateMsC2! };
}

async function throughput(N: number, C: number, L: number, suffix: string): Promise<Record<string, number>> {
  const r = await rig(L, C);
  try {
    await smallPhotos(join(r.root, 'in'), N);
    const before = r.engine.stats();
    const { batchId, wallMs, startedAt, endedAt, estimateMs } = await runToEnd(r.engine, spec(join(r.root, 'in'), join(r.root, 'out')));
    const timing = await sandboxTimings(r.sandbox, r.journal, batchId);
    const breakdown = phaseBreakdown(before.phases, r.engine.stats().phases, timing, wallMs, C);
    // The ideal counts the executions the service really ran, not the inputs given: a deduplicated input costs no
    // time, so counting it would flatter the ratio (it could even read below the physical bound of 1).
    if (timing.executions !== N) throw new Error(`expected ${N} executions for ${N} distinct inputs, the service ran ${timing.executions}`);
    if (timing.maxInFlight > C) throw new Error(`the service saw ${timing.maxInFlight} executions at once; the engine allows ${C}`);
    const ideal = (timing.executions * L) / C;
    // On a loaded machine the sandbox itself runs executions longer than L (it never completes before its edit is
    // done): the same ratio against the durations it really took separates its slowness from the engine's overhead.
    const idealAtMeasured = (timing.executions * timing.meanDurationMs) / C;
    // N·L/C treats executions as divisible; whole ones on C slots cannot end before ⌈N/C⌉·L (N=100, C=8, L=10 s:
    // 13 rounds, 130 s, not 125 s). Printed beside the issue's ideal, so the engine's share of the gap is visible.
    const achievable = Math.ceil(timing.executions / C) * L;
    log(`throughput: ${timing.executions} executions, C=${C} (max ${timing.maxInFlight} at once at the service), L=${L} ms: ${round(wallMs / 1000, 1)} s wall vs ${round(ideal / 1000, 1)} s ideal → ratio ${round(wallMs / ideal)}` +
      ` (executions really took ${round(timing.meanDurationMs, 0)} ms on average; against that: ${round(wallMs / idealAtMeasured)}; against whole rounds ⌈N/C⌉·L = ${round(achievable / 1000, 1)} s: ${round(wallMs / achievable)};` +
      ` completion seen ${round(timing.meanLateMs, 0)} ms after it happened on average)`);
    log(`  where the time goes, per execution: ${breakdown.text}`);
    // The two ends of the batch, where slots stand empty whatever the polling does: Start → the first execution the
    // service accepted (scan, estimate, first encode and upload), the last one finished → the batch's end (download
    // and save of the last results); and the last round's empty slots when C does not divide N.
    const startMs = timing.firstAcceptedAt - startedAt;
    const tailMs = endedAt - timing.lastFinishedAt;
    log(`  the batch's ends: the estimate before Start took ${estimateMs} ms (not in the wall); first execution accepted ${startMs} ms after Start, the batch ended ${tailMs} ms after the last execution finished;` +
      ` whole rounds add ${round((achievable - ideal) / 1000, 1)} s over N·L/C`);
    if (suffix) {
      return { [`wallOverIdeal${suffix}`]: round(wallMs / ideal), [`wallOverRounds${suffix}`]: round(wallMs / achievable), [`meanSeenLateMs${suffix}`]: round(timing.meanLateMs, 0) };
    }
    return {
      ...breakdown.metrics,
      throughputExecutions: timing.executions, throughputMaxInFlight: timing.maxInFlight, throughputWallS: round(wallMs / 1000, 1), throughputIdealS: round(ideal / 1000, 1), wallOverIdeal: round(wallMs / ideal), wallOverRounds: round(wallMs / achievable),
      estimateMs, batchStartMs: startMs, batchTailMs: tailMs, sandboxMeanDurationMs: round(timing.meanDurationMs, 0), wallOverIdealAtMeasuredL: round(wallMs / idealAtMeasured), meanSeenLateMs: round(timing.meanLateMs, 0),
    };
  } finally {
    await r.close();
  }
}

async function uploadRatio(): Promise<Record<string, number>> {
  const r = await rig(200, 4);
  try {
    const input = join(r.root, 'in');
    await mkdir(input);
    const count = Math.max(2, Math.round(3 * Math.min(1, SCALE * 3)));
    for (let i = 0; i < count; i++) await writeFile(join(input, `cam${i}.jpg`), uniqueCopy(await photoLike(6000, 4000, 92), i));
    const before = r.engine.stats();
    await runToEnd(r.engine, spec(input, join(r.root, 'out'), { parameters: { texts: { look: 'warm' }, globalOverrides: { imageSize: '2K' } } }));
    const after = r.engine.stats();
    const ratio = (after.uploadBytes - before.uploadBytes) / (after.originalBytes - before.originalBytes);
    log(`upload: ${count} × 24 MP JPEG (${round((after.originalBytes - before.originalBytes) / count / 1e6, 1)} MB each) at 2K → upload/original ${round(ratio)}`);
    // Fidelity: each upload against a reference resize of the same original to the same size (lossless), luma SSIM.
    const scores: number[] = [];
    for (const name of await readdir(input)) {
      const path = join(input, name);
      const upload = await encodeForUpload(path, { policy: 'fit', imageSize: '2K', stripMetadata: true });
      const sent = await sharp(upload.data).raw().toBuffer({ resolveWithObject: true });
      const reference = await sharp(path).autoOrient().resize(upload.width, upload.height, { kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
      scores.push(ssim(lumaOf(reference.data, reference.info.channels), lumaOf(sent.data, sent.info.channels), upload.width, upload.height));
    }
    scores.sort((a, b) => a - b);
    const at = (q: number) => scores[Math.min(scores.length - 1, Math.floor(q * scores.length))]!;
    log(`  upload SSIM against a lossless reference resize: min ${round(scores[0]!, 4)}, p5 ${round(at(0.05), 4)}, median ${round(at(0.5), 4)} (goal ≥ 0.98)`);
    return { uploadOverOriginal: round(ratio), uploadSsimMin: round(scores[0]!, 4), uploadSsimMedian: round(at(0.5), 4) };
  } finally {
    await r.close();
  }
}

/**
 * Peak RSS is measured in a fresh child process that only runs the engine (inputs are made here first): this
 * process has already held 24 MP images and would report its own history.
 */
async function peakRss(): Promise<Record<string, number>> {
  const N = scaled(1000);
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-rss-'));
  try {
    const input = join(root, 'in');
    await mkdir(input);
    const base = await photoLike(6000, 4000, 80);
    for (let i = 0; i < N; i++) await writeFile(join(input, `p${i}.jpg`), uniqueCopy(base, i));
    // Started with no memory flags or environment of its own: the child applies the same memory profile as the CLI
    // (bin/memory-profile.mjs), as any host of the engine does.
    const flags = (process.env.CHILD_FLAGS ?? '').split(' ').filter(Boolean);
    const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child', input], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const result = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { peak: number; baseline: number; wallMs: number };
    log(`memory: ${N} × 24 MP inputs (${round(base.length / 1e6, 1)} MB each) in ${round(result.wallMs / 1000, 1)} s: peak RSS ${round(result.peak / 2 ** 20, 0)} MB (baseline ${round(result.baseline / 2 ** 20, 0)} MB; the hosts' memory profile${flags.length ? `, extra node flags "${flags.join(' ')}"` : ''})`);
    return { rssItems: N, peakRssMB: round(result.peak / 2 ** 20, 0), baselineRssMB: round(result.baseline / 2 ** 20, 0) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function memoryChild(input: string): Promise<void> {
  const r = await rig(100, 8);
  try {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let atPeak = process.memoryUsage();
    const sample = () => { const m = process.memoryUsage(); if (m.rss > peak) { peak = m.rss; atPeak = m; } };
    const timer = setInterval(sample, 10);
    const { wallMs } = await runToEnd(r.engine, spec(input, join(r.root, 'out')), sample);
    clearInterval(timer);
    process.stderr.write(`memory at peak: ${JSON.stringify(Object.fromEntries(Object.entries(atPeak).map(([k, v]) => [k, Math.round(v / 2 ** 20)])))} MB, sharp ${JSON.stringify((await import('sharp')).default.counters())}\n`);
    log(JSON.stringify({ peak, baseline, wallMs }));
  } finally {
    await r.close();
  }
}

async function pollCost(): Promise<Record<string, number>> {
  const L = 10_000, C = 8, N = 16;
  const r = await rig(L, C);
  try {
    await smallPhotos(join(r.root, 'in'), N);
    const { batchId } = await runToEnd(r.engine, spec(join(r.root, 'in'), join(r.root, 'out')));
    const items = r.journal.listExecutions(batchId);
    // The sandbox reports when each execution really finished (same machine, same clock); completedAt in the journal
    // is when the engine saw it. Under load the sandbox itself may finish later than L: that is not polling lateness.
    const late: number[] = [];
    for (const execution of items) {
      const response = await fetch(`${r.sandbox.url}/executions/${execution.id}`, { headers: { authorization: `Bearer ${r.sandbox.apiKey}` } });
      const body = (await response.json()) as { finishedAt?: string };
      late.push(Date.parse(execution.completedAt!) - Date.parse(body.finishedAt!));
    }
    late.sort((a, b) => a - b);
    const statusRequests = r.engine.stats().statusRequests;
    const perExecution = statusRequests / items.length;
    const maxLate = Math.max(0, late.at(-1)!);
    const limit = Math.max(1000, L / 10);
    log(`polling: ${N} executions of L=${L} ms: ${round(perExecution, 2)} status requests each; completion seen ≤ ${maxLate} ms after it happened (median ${late[Math.floor(late.length / 2)]} ms; goal ≤ ${limit} ms)`);
    return { statusRequestsPerExecution: round(perExecution, 2), completionSeenLateMaxMs: maxLate };
  } finally {
    await r.close();
  }
}

if (process.argv[2] === '--memory-child') {
  const relaunched = await relaunchWithMemoryProfile();
  if (relaunched !== null) process.exit(relaunched);
  await memoryChild(process.argv[3]!);
  process.exit(0);
}

const only = process.env.BENCH_ENGINE_ONLY;
const metrics = {
  ...(!only || only.includes('poll') ? await pollCost() : {}),
  ...(!only || only.includes('upload') ? await uploadRatio() : {}),
  ...(!only || only.includes('throughput') ? await throughputs() : {}),
  ...(!only || only.includes('memory') ? await peakRss() : {}),
};
log(JSON.stringify(metrics));
