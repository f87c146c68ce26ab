// Hot-folder benchmark: write end → submitted latency (p50/p95, production timings), a 1,000-file burst submitted
// exactly once, and idle CPU with 10 armed folders of 5,000 files each. The engine is a recorder (the engine's own
// throughput is bench/engine's business): what is measured here is the watcher and the pipeline.
// Last line: one JSON object of metrics.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HotFolderConfigSchema } from '../shared/hotfolders/model';
import { createHotFolderManager, type HotFolderEngine, type HotFolderLedger, type HotFolderManager } from '../main/core/watch';

const root = await mkdtemp(join(tmpdir(), 'br-bench-watch-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) return false;
    await sleep(10);
  }
  return true;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

// 1. Latency with the production defaults (500 ms write-finish threshold).
const latencies: number[] = [];
{
  const rec = recorder();
  const m = manager(rec);
  const dir = join(root, 'latency');
  await armFolder(m, 'latency', dir);
  for (let i = 0; i < 40; i++) {
    const path = join(dir, `photo-${i}.jpg`);
    await writeFile(path, jpeg(`latency ${i}`));
    const writeEnd = performance.now();
    if (await waitUntil(() => rec.submittedAt.has(path), 10_000)) latencies.push(rec.submittedAt.get(path)![0]! - writeEnd);
    await sleep(50 + (i % 5) * 40);
  }
  await m.close();
}
const p50 = percentile(latencies, 50);
const p95 = percentile(latencies, 95);
console.log(`write end → submitted: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${latencies.length} files (goal p50 ≤ 1000 ms)`);

// 2. Burst: 1,000 files appear at once.
let burstExactlyOnce = false;
let burstSeconds = NaN;
{
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
{
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
  watchLatencyP50Ms: Math.round(p50),
  watchLatencyP95Ms: Math.round(p95),
  burstFiles: 1000,
  burstExactlyOnce,
  burstSeconds: Number(burstSeconds.toFixed(2)),
  idleCpuPercent: Number(idleCpuPercent.toFixed(3)),
}));
