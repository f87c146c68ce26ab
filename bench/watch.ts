// Hot-folder benchmark: write end → submitted latency (p50/p95, production timings: JPEGs, JPEGs in a polling folder,
// and a format whose completeness cannot be proven), a 1,000-file burst submitted exactly once, and idle CPU with 10
// armed folders of 5,000 files each. One part only: BENCH_WATCH_ONLY=latency (burst, idle). The engine is a recorder (the engine's own
// throughput is bench/engine's business): what is measured here is the watcher and the pipeline.
// Last line: one JSON object of metrics.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { HotFolderConfigSchema } from '../shared/hotfolders/model';
import { createHotFolderManager, type HotFolderEngine, type HotFolderLedger, type HotFolderManager } from '../main/core/watch';
import { percentile, waitUntil } from './_bench-util';

const root = await mkdtemp(join(tmpdir(), 'br-bench-watch-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same pixels, different bytes (a COM segment after SOI): every file has its own content hash. */
function uniqueJpeg(base: Buffer, seed: string): Buffer {
  const text = Buffer.from(seed);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), header, text, base.subarray(2)]);
}

function jpeg(seed: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(seed.padEnd(512, '.')), Buffer.from([0xff, 0xd9])]);
}

function recorder() {
  const submittedAt = new Map<string, number[]>();
  const engine: HotFolderEngine = {
    async submit(spec) {
      const now = performance.now();
      for (const p of spec.inputs.paths) submittedAt.set(p, [...(submittedAt.get(p) ?? []), now]);
      return { batchId: `b${submittedAt.size}` };
    },
    onItemFinal: () => () => undefined,
    creditCost: async () => 1,
  };
  const entries = new Map<string, { outcome: 'saved' }>();
  const ledger: HotFolderLedger = { get: (k) => entries.get(k) ?? null, record: () => undefined };
  return { engine, ledger, submittedAt, total: () => [...submittedAt.values()].reduce((n, v) => n + v.length, 0) };
}

function manager(rec: ReturnType<typeof recorder>): HotFolderManager {
  return createHotFolderManager({ engine: rec.engine, ledger: rec.ledger, configStore: { load: () => [], save: () => undefined } });
}

async function armFolder(m: HotFolderManager, id: string, path: string, existingFiles: 'process' | 'skip' = 'process') {
  await mkdir(path, { recursive: true });
  return m.save(HotFolderConfigSchema.parse({ id, path, outputFolder: join(root, `${id}-out`), workflowId: 'wf', enabled: true, existingFiles }));
}

/**
 * Write end → submitted, with the production timings, for files written in one go: camera JPEGs (their structure
 * proves them whole, format-complete.ts), a format that cannot be proven (TIFF: the conservative window), and JPEGs
 * in a polling folder (network shares).
 */
async function latency(name: string, ext: string, bytes: (i: number) => Buffer, polling = false): Promise<{ p50: number; p95: number }> {
  const latencies: number[] = [];
  const rec = recorder();
  const m = manager(rec);
  const dir = join(root, `latency-${name}`);
  await mkdir(dir, { recursive: true });
  await m.save(HotFolderConfigSchema.parse({ id: name, path: dir, outputFolder: join(root, `${name}-out`), workflowId: 'wf', enabled: true, existingFiles: 'process', polling }));
  for (let i = 0; i < 40; i++) {
    const path = join(dir, `photo-${i}.${ext}`);
    await writeFile(path, bytes(i));
    const writeEnd = performance.now();
    if (await waitUntil(() => rec.submittedAt.has(path), 10_000)) latencies.push(rec.submittedAt.get(path)![0]! - writeEnd);
    await sleep(50 + (i % 5) * 40);
  }
  await m.close();
  const result = { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
  console.log(`write end → submitted, ${name}: p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms over ${latencies.length} files` +
    (name === 'unproven' ? ' (conservative window, no goal)' : ' (goal p50 ≤ 500 ms, p95 ≤ 800 ms)'));
  return result;
}

const camera = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
const tiff = await sharp(camera).tiff().toBuffer();
const only = process.env.BENCH_WATCH_ONLY;
const want = (part: string) => !only || only.includes(part);
const latencyJpeg = want('latency') ? await latency('jpeg', 'jpg', (i) => uniqueJpeg(camera, `latency ${i}`)) : null;
const latencyPolling = want('latency') ? await latency('polling', 'jpg', (i) => uniqueJpeg(camera, `polling ${i}`), true) : null;
const latencyUnproven = want('latency') ? await latency('unproven', 'tif', (i) => Buffer.concat([tiff, Buffer.from(`unproven ${i}`)])) : null;

// 2. Burst: 1,000 files appear at once.
let burstExactlyOnce = false;
let burstSeconds = NaN;
if (want('burst')) {
  const rec = recorder();
  const m = manager(rec);
  const dir = join(root, 'burst');
  await armFolder(m, 'burst', dir);
  const count = 1000;
  const start = performance.now();
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, k) => writeFile(join(dir, `burst-${i + k}.jpg`), jpeg(`burst ${i + k}`))));
  }
  await waitUntil(() => rec.submittedAt.size === count, 60_000);
  burstSeconds = (performance.now() - start) / 1000;
  await sleep(2_000);
  burstExactlyOnce = rec.submittedAt.size === count && rec.total() === count;
  console.log(`burst: ${rec.submittedAt.size} distinct files, ${rec.total()} submissions for ${count} files in ${burstSeconds.toFixed(1)} s → exactly once: ${burstExactlyOnce}`);
  await m.close();
}

// 3. Idle CPU: 10 folders × 5,000 files, armed, nothing changing.
let idleCpuPercent = NaN;
if (want('idle')) {
  const rec = recorder();
  const m = manager(rec);
  const folders = 10;
  const perFolder = 5000;
  for (let f = 0; f < folders; f++) {
    const dir = join(root, `idle-${f}`);
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < perFolder; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, k) => writeFile(join(dir, `p-${i + k}.jpg`), jpeg(`idle ${f} ${i + k}`))));
    }
  }
  const armStart = performance.now();
  for (let f = 0; f < folders; f++) await armFolder(m, `idle-${f}`, join(root, `idle-${f}`), 'skip');
  await m.settled();
  const armSeconds = (performance.now() - armStart) / 1000;
  await sleep(3_000);
  const windowMs = 15_000;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await sleep(windowMs);
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  idleCpuPercent = ((cpu.user + cpu.system) / 1000 / wall) * 100;
  const states = m.list().map((s) => s.status.state);
  console.log(`idle: ${folders} folders × ${perFolder} files armed in ${armSeconds.toFixed(1)} s (${states.filter((s) => s === 'armed').length} armed); ` +
    `CPU ${idleCpuPercent.toFixed(2)}% of one core over ${(wall / 1000).toFixed(0)} s (goal < 1%); submissions while idle: ${rec.total()}`);
  await m.close();
}

await rm(root, { recursive: true, force: true });
console.log(JSON.stringify({
  watchLatencyP50Ms: latencyJpeg && Math.round(latencyJpeg.p50),
  watchLatencyP95Ms: latencyJpeg && Math.round(latencyJpeg.p95),
  watchLatencyPollingP50Ms: latencyPolling && Math.round(latencyPolling.p50),
  watchLatencyPollingP95Ms: latencyPolling && Math.round(latencyPolling.p95),
  watchLatencyUnprovenP50Ms: latencyUnproven && Math.round(latencyUnproven.p50),
  watchLatencyUnprovenP95Ms: latencyUnproven && Math.round(latencyUnproven.p95),
  burstFiles: 1000,
  burstExactlyOnce,
  burstSeconds: Number(burstSeconds.toFixed(2)),
  idleCpuPercent: Number(idleCpuPercent.toFixed(3)),
}));
