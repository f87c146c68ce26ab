import { lstat, type Stats } from 'node:fs';
import type { PolledWatcher } from './polled-watcher';
import type { WalkSnapshot } from './walk-snapshot';

/** How often a slice of the walk's files is looked at; each slice is sized so the whole snapshot takes one cycle. */
const TICK_MS = 250;
/**
 * The share of one core the re-check may use (0.5 %). The folder polls of a 100k archive already cost 3–4.4 % of a
 * core and idle polling must stay ≤ 5 %. A fixed rate (250 lstats a second) took 0.9 point at 100k on a busy machine
 * and less on a quiet one: the rate follows what an lstat really costs here, measured as the re-check runs, so a
 * fast disk re-checks sooner and a dear lstat stretches the cycle instead of the CPU — up to MAX_MS_PER_FILE.
 */
export const RECHECK_CPU_SHARE = 0.005;
/**
 * The cycle's bound whatever the measurement says: 6 ms a file (≥ 167 lstats a second: 60 s at 10,000 files,
 * 10 min at 100,000). What the re-check measures is the whole process's CPU over a slice, and everything else the
 * process does meanwhile (the engine decoding photos, journal writes) lands in it: left unbounded, a busy engine
 * made its "lstat cost" climb to the cap and a rewrite of an old photo took 41 min to be seen at 10k, ~7 h at 100k.
 */
export const MAX_MS_PER_FILE = 6;
/** An lstat's cost until one is measured (CPU µs, callback plus the thread pool's syscall): a busy 2-core machine's. */
export const INITIAL_STAT_COST_US = 20;
/** How many slices' measurements the cost is the median of (≈ 2 s at one slice every 250 ms). */
const COST_WINDOW = 8;

/**
 * How long one look at every file of the snapshot takes: `cycleMs`, or longer when `files` lstats at `statCostUs`
 * each would use more than RECHECK_CPU_SHARE of a core over it — never longer than MAX_MS_PER_FILE a file.
 */
export function recheckCycleMs(files: number, cycleMs: number, statCostUs = INITIAL_STAT_COST_US): number {
  const budgeted = Math.ceil((files * statCostUs) / 1000 / RECHECK_CPU_SHARE);
  return Math.max(cycleMs, Math.min(budgeted, files * MAX_MS_PER_FILE));
}

/**
 * An lstat's cost from the last slices' measurements (CPU µs per lstat): their median (the lower middle one).
 * Whatever else the process did during a slice only ever adds to its figure: a burst of engine work in fewer than
 * half the window's slices no longer drags the estimate up, while a lasting dearer lstat (a slow share) raises most
 * slices' figures and so the estimate. Not the lowest: that one underestimates the lstat's cost (the 100k idle poll
 * went over its 5 % with it), and lasting outside CPU is bounded by MAX_MS_PER_FILE instead.
 */
export class StatCost {
  private readonly recent: number[] = [];

  constructor(private estimate = INITIAL_STAT_COST_US) {}

  get us(): number {
    return this.estimate;
  }

  measured(sliceCpuUs: number, stats: number): void {
    if (stats <= 0) return;
    this.recent.push(Math.min(2_000, Math.max(2, sliceCpuUs / stats)));
    if (this.recent.length > COST_WINDOW) this.recent.shift();
    const sorted = [...this.recent].sort((a, b) => a - b);
    this.estimate = sorted[(sorted.length - 1) >> 1]!;
  }
}

/**
 * Polling mode only. A file rewritten in place does not change its folder's mtime, so the folder poll never sees it,
 * and the files the walk found are not watched one by one (per-file fs.watchFile cost ~23 % of a core at 100k files).
 * Instead the walk's files are lstat'ed in small slices, a slice every TICK_MS, so every one is looked at once per
 * `cycleMs` — or per recheckCycleMs() on a large archive, as long as RECHECK_CPU_SHARE of a core allows and at most
 * MAX_MS_PER_FILE a file (the bound on noticing a rewrite of an old photo). A file that changed is forgotten by the snapshot and
 * handed to `onChanged` (reported, then watched by chokidar as any new file); one gone or no longer a regular file
 * (replaced by a link) is only forgotten. The next slice starts after the previous one answered: a stalled share
 * never piles up stats. Returns a stop function.
 */
export function pollSnapshot(snapshot: WalkSnapshot, cycleMs: number, onChanged: (path: string) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let cursor: Iterator<string> = snapshot.paths();
  const nextPath = (): string | undefined => {
    let step = cursor.next();
    if (step.done) {
      cursor = snapshot.paths();
      step = cursor.next();
    }
    return step.done ? undefined : step.value;
  };
  const look = (path: string) => new Promise<void>((resolve) => {
    lstat(path, (error: NodeJS.ErrnoException | null, stats: Stats) => {
      if (!stopped) {
        if (error) {
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR') snapshot.touched(path);
        } else if (!snapshot.skip(path, stats)) {
          // Changed (a rewrite) or no longer a regular file: skip() has forgotten it already. Only a file is reported.
          if (stats.isFile()) onChanged(path);
        }
      }
      resolve();
    });
  });
  const statCost = new StatCost();
  const tick = async () => {
    timer = null;
    // The process's CPU while this slice is picked and its lstats run: theirs, plus a little of whatever else ran
    // (an overestimate, so the re-check errs on the side of the budget).
    const cpu = process.cpuUsage();
    const slice = Math.max(1, Math.ceil((snapshot.size * TICK_MS) / recheckCycleMs(snapshot.size, cycleMs, statCost.us)));
    const paths: string[] = [];
    // A slice never looks at a path twice (a snapshot smaller than a slice).
    for (let i = 0; i < Math.min(slice, snapshot.size); i++) {
      const path = nextPath();
      if (path === undefined) break;
      paths.push(path);
    }
    await Promise.all(paths.map(look));
    const used = process.cpuUsage(cpu);
    statCost.measured(used.user + used.system, paths.length);
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void tick(), TICK_MS);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/**
 * Polling mode only: every `quietMs / 2`, the new photos no poll has seen change for `quietMs` leave chokidar's own
 * poll for the snapshot (so for pollSnapshot's slices): their number no longer adds a stat every 2 s each to the
 * folder's poll for as long as it stays armed. A rewrite after that is seen as an old photo's is. Returns a stop function.
 */
export function handQuietFilesOver(watcher: PolledWatcher, snapshot: WalkSnapshot, quietMs: number): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const sweep = async () => {
    timer = null;
    await watcher.releaseQuietFiles(quietMs, (path, stats) => snapshot.adopt(path, stats));
    if (stopped) return;
    timer = setTimeout(() => void sweep(), Math.max(TICK_MS, quietMs / 2));
    timer.unref();
  };
  timer = setTimeout(() => void sweep(), Math.max(TICK_MS, quietMs / 2));
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
