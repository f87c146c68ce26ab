// The watcher process of bench/scale-watch.ts: one hot folder armed on the fixture (the archive), measured from
// inside so nothing else (the fixture's making, sharp's threads) colours its CPU figure. Prints one `@result {…}`
// line on stdout. Arguments: <fixture dir> <state dir> <native|polling>; env BENCH_IDLE_MS, BENCH_LATENCY_FILES.
import { statSync } from 'node:fs';
import { readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HotFolderConfigSchema, type HotFolderConfig } from '../shared/hotfolders/model';
import { createHotFolderManager, type HotFolderEngine, type HotFolderLedger, type HotFolderManager } from '../main/core/watch';
import { createFileBaselineStore } from '../main/core/watch/baseline-store';
import { createFileHashCache } from '../main/core/watch/hash-cache';
import { percentile, waitUntil } from './_bench-util';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same pixels, different bytes (a COM segment after SOI): every file has its own content hash. */
export function uniqueJpeg(base: Buffer, seed: string): Buffer {
  const text = Buffer.from(seed);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), header, text, base.subarray(2)]);
}

/** inotify watches this process holds (Linux; null elsewhere): one line per watch in the inotify fd's fdinfo. */
export async function inotifyWatches(): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  let count = 0;
  for (const fd of await readdir('/proc/self/fd').catch(() => [])) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (!target.includes('inotify')) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return count;
}

/**
 * The floor under a polled folder's idle CPU: what one synchronous stat of a folder costs here (CPU µs, the bare call
 * and its Stats), over every folder of the tree, the cheapest of a few rounds (a round the machine's load slowed is
 * not the call's cost) — the folder poll can only be cheaper by making fewer.
 */
export function folderStatFloorUs(dirs: string[], rounds = 7): number {
  if (dirs.length === 0) return 0;
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage();
    for (const dir of dirs) statSync(dir, { throwIfNoEntry: false });
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / dirs.length);
  }
  return best;
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
  const ledger: HotFolderLedger = { get: () => null, record: () => undefined };
  return { engine, ledger, submittedAt, total: () => [...submittedAt.values()].reduce((n, v) => n + v.length, 0) };
}

/** Arms (or resumes, through start()) one folder and waits until its scan is over: the folder is then 'armed'. */
async function arm(stateDir: string, config: HotFolderConfig, rec: ReturnType<typeof recorder>, resume: boolean) {
  let configs = resume ? [config] : [];
  const m: HotFolderManager = createHotFolderManager({
    engine: rec.engine, ledger: rec.ledger,
    configStore: { load: () => configs, save: (next) => void (configs = next) },
    baseline: createFileBaselineStore(join(stateDir, 'hotfolders')),
    hashCache: createFileHashCache(join(stateDir, 'hotfolders')),
  });
  const started = performance.now();
  const cpu = process.cpuUsage();
  if (resume) await m.start();
  else await m.save(config);
  await m.settled();
  const used = process.cpuUsage(cpu);
  return { m, readyMs: performance.now() - started, readyCpuMs: (used.user + used.system) / 1000, state: m.get(config.id).status };
}

export async function runChild(fixture: string, stateDir: string, mode: 'native' | 'polling'): Promise<Record<string, unknown>> {
  const idleMs = Number(process.env.BENCH_IDLE_MS ?? '20000');
  const files = Number(process.env.BENCH_LATENCY_FILES ?? '20');
  const config = HotFolderConfigSchema.parse({
    id: `scale-${mode}`, path: fixture, outputFolder: join(stateDir, 'out'), workflowId: 'wf', enabled: true,
    recursive: true, existingFiles: 'skip', polling: mode === 'polling',
  });
  const rec = recorder();
  const first = await arm(stateDir, config, rec, false);
  const m = first.m;
  const watches = await inotifyWatches();
  const rssMb = process.memoryUsage().rss / 1e6;
  await sleep(1_000);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await sleep(idleMs);
  const cpu = process.cpuUsage(cpuBefore);
  const idleCpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
  const submittedWhileIdle = rec.total();

  // New files, one at a time, into subfolders spread over the archive: write end → submitted.
  const dirs = (await readdir(fixture, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const statFloorUs = folderStatFloorUs([fixture, ...dirs.map((d) => join(fixture, d))]);
  const base = await readFile(join(fixture, dirs[0] ?? '', (await readdir(join(fixture, dirs[0] ?? ''))).find((f) => f.endsWith('.jpg')) ?? ''));
  const written: string[] = [];
  const latencies: number[] = [];
  try {
    for (let i = 0; i < files; i++) {
      const dir = dirs.length > 0 ? join(fixture, dirs[Math.floor((i * dirs.length) / files)]!) : fixture;
      const path = join(dir, `new-${process.pid}-${i}.jpg`);
      written.push(path);
      await writeFile(path, uniqueJpeg(base, `new ${process.pid} ${i} ${Date.now()}`));
      const writeEnd = performance.now();
      if (await waitUntil(() => rec.submittedAt.has(path), 10_000)) latencies.push(rec.submittedAt.get(path)![0]! - writeEnd);
      await sleep(100 + (i % 5) * 60);
    }
    await sleep(1_500);
  } finally {
    await m.close();
    await Promise.all(written.map((p) => rm(p, { force: true })));
  }
  const submittedNew = written.filter((p) => rec.submittedAt.get(p)?.length === 1).length;
  const submissions = rec.total();

  // A restart: the same folder resumed from its baseline (the new files are gone again, so nothing is new).
  const again = recorder();
  const second = await arm(stateDir, config, again, true);
  await second.m.close();

  return {
    mode, readyMs: Math.round(first.readyMs), readyCpuMs: Math.round(first.readyCpuMs), state: first.state.state,
    resumeReadyMs: Math.round(second.readyMs), resumeReadyCpuMs: Math.round(second.readyCpuMs),
    resumeState: second.state.state, resumeSubmissions: again.total(), inotifyWatches: watches, rssMb: Math.round(rssMb),
    idleCpuPercent: Number(idleCpuPercent.toFixed(3)), idleMs, submittedWhileIdle,
    latencyP50Ms: Math.round(percentile(latencies, 50)), latencyP95Ms: Math.round(percentile(latencies, 95)),
    latencyFiles: files, latencySeen: latencies.length, submittedNew, submissions,
    statFloorUs: Number(statFloorUs.toFixed(2)), folders: dirs.length + 1,
  };
}

if (process.argv[1]?.endsWith('_scale-watch-child.ts')) {
  const [fixture, stateDir, mode] = process.argv.slice(2);
  const result = await runChild(fixture!, stateDir!, mode === 'polling' ? 'polling' : 'native');
  process.stdout.write(`@result ${JSON.stringify(result)}\n`);
  process.exit(0);
}
