import { lstat, type Stats } from 'node:fs';
import type { WalkSnapshot } from './walk-snapshot';

/** How often a slice of the walk's files is looked at; each slice is sized so the whole snapshot takes one cycle. */
const TICK_MS = 250;
/**
 * At most this many lstats a second (16–44 µs of CPU each in bench/scale-watch.ts: ≤ 1.1 % of a core). The
 * folder polls of a 100k archive already cost ~4.4 % of a core, and idle polling must stay ≤ 5 %: past 7,500 files
 * the cycle grows (400 s at 100,000) rather than the CPU (500 a second measured 5.64 % idle at 100k).
 */
export const MAX_STATS_PER_SECOND = 250;

/** How long one look at every file of the snapshot takes: `cycleMs`, or longer when the rate cap needs it. */
export function recheckCycleMs(files: number, cycleMs: number): number {
  return Math.max(cycleMs, Math.ceil((files / MAX_STATS_PER_SECOND) * 1000));
}

/**
 * Polling mode only. A file rewritten in place does not change its folder's mtime, so the folder poll never sees it,
 * and the files the walk found are not watched one by one (per-file fs.watchFile cost ~23 % of a core at 100k files).
 * Instead the walk's files are lstat'ed in small slices, a slice every TICK_MS, so every one is looked at once per
 * `cycleMs` — or per recheckCycleMs() on a large archive (the bound on noticing a rewrite of an old photo). A file that changed is forgotten by the snapshot and
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
  const tick = async () => {
    timer = null;
    const slice = Math.max(1, Math.ceil((snapshot.size * TICK_MS) / recheckCycleMs(snapshot.size, cycleMs)));
    const paths: string[] = [];
    // A slice never looks at a path twice (a snapshot smaller than a slice).
    for (let i = 0; i < Math.min(slice, snapshot.size); i++) {
      const path = nextPath();
      if (path === undefined) break;
      paths.push(path);
    }
    await Promise.all(paths.map(look));
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
