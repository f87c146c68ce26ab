// Issue 34, item 5: hot folders that already hold an archive. A folder of 100,000 × BENCH_SCALE small JPEGs in
// 1,000 × BENCH_SCALE subfolders (100 each) is armed with the 'skip' policy (the archive is old work), in a child
// process (bench/_scale-watch-child.ts) that measures itself, once with native events and once polling:
//  - ready: save → the folder 'armed' (the watcher's walk and the scan that writes the baseline)   goal ≤ 10 s;
//  - idle CPU of the watcher process over BENCH_IDLE_MS (default 20 s), process.cpuUsage         goal ≤ 2 % native,
//    ≤ 5 % polling, of one core;
//  - new file → submitted, p50 over BENCH_LATENCY_FILES (default 20) files written one at a time  goal ≤ 0.5 s;
//  - a restart: the same folder resumed from its baseline → 'armed' again (no goal; nothing may be submitted);
//  - exactly once: every new file submitted once, no existing file ever.
// Polling also prints the floor under its idle CPU: one bare statSync of a folder (CPU µs, measured in the same run)
// times the folder stats a second the poll makes (MAX_FOLDER_STATS_PER_SECOND, or every folder every 250 ms below it).
// BENCH_WATCH_MODES=polling (or native) runs one mode only.
// The fixture is cached under /tmp/batchroom-scale-fixtures/watch-<count>. Last line: one JSON object of metrics.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { uniqueJpeg } from './_scale-watch-child';
import { MAX_FOLDER_STATS_PER_SECOND } from '../main/core/watch/folder-poller';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const PER_DIR = 100;
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export interface WatchFixture { dir: string; files: number; dirs: number }

/** The archive's shape at a scale: 100 files a subfolder, never fewer than 20 files. */
export function fixtureShape(scale: number): { files: number; dirs: number } {
  const files = Math.max(20, Math.round(100_000 * scale));
  return { files, dirs: Math.max(1, Math.round(files / PER_DIR)) };
}

/** Makes (or reuses) the archive; a leftover `new-*` file of an interrupted run is removed first. */
export async function watchFixture(scale: number, cacheRoot = '/tmp/batchroom-scale-fixtures'): Promise<WatchFixture> {
  const { files, dirs } = fixtureShape(scale);
  const dir = join(cacheRoot, `watch-${files}`);
  const marker = `${dir}.complete`;
  if (await stat(marker).then(() => true, () => false)) {
    for (const sub of await readdir(dir)) {
      for (const name of await readdir(join(dir, sub)).catch(() => [])) {
        if (name.startsWith('new-')) await rm(join(dir, sub, name), { force: true });
      }
    }
    return { dir, files, dirs };
  }
  await rm(dir, { recursive: true, force: true });
  const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#456' } }).jpeg().toBuffer();
  for (let d = 0; d < dirs; d++) {
    const sub = join(dir, `shoot-${String(d).padStart(4, '0')}`);
    await mkdir(sub, { recursive: true });
    const count = d === dirs - 1 ? files - PER_DIR * (dirs - 1) : PER_DIR;
    await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(sub, `IMG_${String(i).padStart(4, '0')}.jpg`), uniqueJpeg(base, `archive ${d} ${i}`))));
  }
  await writeFile(marker, `${files}\n`);
  return { dir, files, dirs };
}

/** Runs the watcher child for one mode; resolves with its result, and never leaves it running. */
export function runWatcherChild(fixture: string, stateDir: string, mode: 'native' | 'polling'): Promise<Record<string, number | string | null>> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '_scale-watch-child.ts'), fixture, stateDir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'], env: process.env,
  });
  const stop = () => child.kill('SIGKILL');
  process.once('exit', stop);
  let result: Record<string, number | string | null> | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('@result ')) result = JSON.parse(line.slice(8));
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      process.off('exit', stop);
      if (result) resolve(result);
      else reject(new Error(`watcher child (${mode}) exited ${code} without a result`));
    });
  });
}

export async function main(): Promise<void> {
  const fixtureStart = performance.now();
  const fixture = await watchFixture(SCALE);
  log(`hot folder with an archive: ${fixture.files} files in ${fixture.dirs} subfolders (BENCH_SCALE ${SCALE}; fixture ${((performance.now() - fixtureStart) / 1000).toFixed(1)} s; ${load()})`);
  const metrics: Record<string, unknown> = { files: fixture.files, dirs: fixture.dirs };
  const modes = (['native', 'polling'] as const).filter((m) => (process.env.BENCH_WATCH_MODES ?? 'native,polling').split(',').includes(m));
  for (const mode of modes) {
    const stateDir = await mkdtemp(join(tmpdir(), `br-scale-watch-${mode}-`));
    try {
      const r = await runWatcherChild(fixture.dir, stateDir, mode);
      const cpuGoal = mode === 'native' ? 2 : 5;
      const ready = Number(r.readyMs) / 1000;
      const exact = r.submittedNew === r.latencyFiles && r.submissions === r.latencyFiles && r.resumeSubmissions === 0;
      log(`${mode}: ready in ${ready.toFixed(2)} s (${(Number(r.readyMs) / fixture.files * 1000).toFixed(1)} µs a file; goal ≤ 10 s: ${verdict(ready <= 10 && r.state === 'armed')}; CPU ${(Number(r.readyCpuMs) / 1000).toFixed(2)} s), ` +
        `${r.inotifyWatches ?? '–'} inotify watches, RSS ${r.rssMb} MB; ${load()}`);
      log(`${mode}: idle CPU ${Number(r.idleCpuPercent).toFixed(2)} % of one core over ${Number(r.idleMs) / 1000} s (goal ≤ ${cpuGoal} %: ${verdict(Number(r.idleCpuPercent) <= cpuGoal)}); ${load()}`);
      if (mode === 'polling') {
        const statsPerSecond = Math.min(MAX_FOLDER_STATS_PER_SECOND, Number(r.folders) * 4);
        log(`polling: a folder's bare statSync ${r.statFloorUs} µs CPU × ${statsPerSecond} folder stats a second (${r.folders} folders) = ` +
          `${((Number(r.statFloorUs) * statsPerSecond) / 1e4).toFixed(2)} % of a core: the floor under the folder poll; ${load()}`);
      }
      log(`${mode}: new file → submitted p50 ${r.latencyP50Ms} ms, p95 ${r.latencyP95Ms} ms over ${r.latencySeen}/${r.latencyFiles} files (goal p50 ≤ 500 ms: ${verdict(Number(r.latencyP50Ms) <= 500 && r.latencySeen === r.latencyFiles)})`);
      log(`${mode}: restart (resume from the baseline) ready in ${(Number(r.resumeReadyMs) / 1000).toFixed(2)} s (CPU ${(Number(r.resumeReadyCpuMs) / 1000).toFixed(2)} s); exactly once: ${r.submittedNew}/${r.latencyFiles} new files once, ` +
        `${r.submissions} submissions in all, ${r.submittedWhileIdle} while idle, ${r.resumeSubmissions} after the restart (${exact ? 'met' : 'MISSED'})`);
      metrics[mode] = { ...r, exactlyOnce: exact };
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  }
  log(JSON.stringify({ scaleWatch: metrics }));
}

if (process.argv[1]?.endsWith('scale-watch.ts')) await main();
