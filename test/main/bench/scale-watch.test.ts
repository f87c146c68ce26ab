import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// bench/scale-watch.ts at a tiny scale (300 files in 3 subfolders, 1 s idle windows, 3 new files a mode), in its own
// process as `npm run bench` runs it: functional results only (counts, exactly once, the JSON line), never times.

const repo = join(import.meta.dirname, '..', '..', '..');

/** Processes (the bench's watcher children) that carry this run's tag in their environment. */
async function tagged(tag: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    const env = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    if (env.includes(`BENCH_RUN_TAG=${tag}`)) found.push(Number(pid));
  }
  return found;
}

describe('bench/scale-watch.ts', () => {
  it('arms an archive natively and by polling, takes each new file once, and prints its metrics', async () => {
    const tag = `scale-watch-test-${process.pid}-${Date.now()}`;
    const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'bench', 'scale-watch.ts')], {
      cwd: repo, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_SCALE: '0.003', BENCH_IDLE_MS: '1000', BENCH_LATENCY_FILES: '3', BENCH_RUN_TAG: tag },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, err: code === 0 ? '' : err }).toEqual({ code: 0, err: '' });
    const lines = out.trim().split('\n');
    const { scaleWatch } = JSON.parse(lines[lines.length - 1]!);
    expect({ files: scaleWatch.files, dirs: scaleWatch.dirs }).toEqual({ files: 300, dirs: 3 });
    for (const mode of ['native', 'polling']) {
      const r = scaleWatch[mode];
      expect({ state: r.state, resumeState: r.resumeState, seen: r.latencySeen, submittedNew: r.submittedNew, submissions: r.submissions, idle: r.submittedWhileIdle, resume: r.resumeSubmissions, exactlyOnce: r.exactlyOnce })
        .toEqual({ state: 'armed', resumeState: 'armed', seen: 3, submittedNew: 3, submissions: 3, idle: 0, resume: 0, exactlyOnce: true });
      expect(typeof r.readyMs).toBe('number');
      expect(typeof r.idleCpuPercent).toBe('number');
    }
    if (process.platform === 'linux') expect(scaleWatch.native.inotifyWatches).toBeLessThanOrEqual(3 + 1 + 3);
    // The polling floor: the bare folder stat measured over the tree's folders (3 shoots and the root).
    expect({ folders: scaleWatch.polling.folders, floor: scaleWatch.polling.statFloorUs > 0 }).toEqual({ folders: 4, floor: true });
    expect(lines.some((line) => line.startsWith('polling: a folder\'s bare statSync'))).toBe(true);
    expect(lines.filter((line) => /\b(met|MISSED)\b/.test(line)).length).toBeGreaterThanOrEqual(8);
    if (process.platform === 'linux') expect(await tagged(tag)).toEqual([]);
  }, 240_000);
});
