// Polling mode (network shares), a folder armed for a long time: every photo that arrived after the arm used to stay
// in the poll thread at a stat every pollingIntervalMs (2 s) until the folder was armed again. Now a photo no poll
// has seen change for quietFileMs leaves that poll for the walk snapshot's slices (snapshot-poller.ts
// handQuietFilesOver), whose CPU is budgeted. This arms one polled folder in this process (the watcher alone, no
// engine), writes BENCH_NEW_FILES (default 5,000) photos into it, and measures the process's idle CPU over
// BENCH_IDLE_MS (default 10 s) twice in one run: while they are all still polled one by one (what lasted for ever
// before), and after they were handed over. Prints both, their ratio, and how many paths chokidar still lists.
// BENCH_QUIET_MS (default 15 s) stands in for the 60 s default so the run stays short.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WATCH_TIMINGS, startFolderWatcher } from '../main/core/watch/folder-watcher';
import { ignoreRulesFor } from '../main/core/watch/ignore';

const FILES = Number(process.env.BENCH_NEW_FILES ?? '5000');
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? '10000');
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? '15000');
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The whole process's CPU (every thread: the poll thread's stats included) over `ms`, as a share of one core. */
async function idleCpu(ms: number): Promise<number> {
  const start = process.cpuUsage();
  const started = performance.now();
  await sleep(ms);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / (performance.now() - started);
}

const work = await mkdtemp(join(tmpdir(), 'br-bench-quiet-'));
const inbox = join(work, 'in');
await mkdir(inbox, { recursive: true });
const reported = new Set<string>();
const watcher = startFolderWatcher({
  root: inbox, recursive: true, polling: true, ignored: ignoreRulesFor(inbox, join(work, 'out')),
  timings: { ...DEFAULT_WATCH_TIMINGS, quietFileMs: QUIET_MS },
  onFile: (path) => reported.add(path), onError: (error) => log(`watcher error: ${error.message}`), onRootGone: () => undefined,
});
try {
  await watcher.ready;
  const listed = () => (watcher.watched()[inbox] ?? []).length;
  const writeStart = performance.now();
  for (let i = 0; i < FILES; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, FILES - i) }, (_, k) => writeFile(join(inbox, `IMG_${String(i + k).padStart(6, '0')}.jpg`),
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe]), Buffer.from(`new photo ${i + k}`.padEnd(60, '.')), Buffer.from([0xff, 0xd9])]))));
  }
  while (reported.size < FILES) await sleep(100);
  log(`${FILES} new photos written and reported in ${((performance.now() - writeStart) / 1000).toFixed(1)} s (load ${loadavg()[0]!.toFixed(2)})`);
  const before = await idleCpu(IDLE_MS);
  const listedBefore = listed();
  log(`polled one by one (${listedBefore} listed): idle CPU ${(before * 100).toFixed(2)} % of a core over ${IDLE_MS / 1000} s — before this change, for as long as the folder stayed armed`);
  const deadline = performance.now() + QUIET_MS * 3;
  while (listed() > 0 && performance.now() < deadline) await sleep(200);
  const after = await idleCpu(IDLE_MS);
  const listedAfter = listed();
  log(`handed over after ${QUIET_MS / 1000} s quiet (${listedAfter} listed): idle CPU ${(after * 100).toFixed(2)} % of a core (load ${loadavg()[0]!.toFixed(2)})`);
  log(`idle CPU after ÷ before: ${(after / before).toFixed(2)}`);
  log(JSON.stringify({ files: FILES, idleMs: IDLE_MS, quietMs: QUIET_MS, cpuBefore: before, cpuAfter: after, ratio: after / before, listedBefore, listedAfter, load: loadavg()[0] }));
} finally {
  await watcher.close();
  await rm(work, { recursive: true, force: true });
}
