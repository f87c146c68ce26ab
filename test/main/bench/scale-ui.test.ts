import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Runs bench/scale-ui.ts at a tiny scale in its own process group; answers its output and exit code. */
function runBench(scale: string): Promise<{ code: number | null; stdout: string; pid: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-ui.ts'], { cwd: ROOT, env: { ...process.env, BENCH_SCALE: scale }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stdout, pid: child.pid! }));
  });
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('bench/scale-ui.ts at BENCH_SCALE 0.002 (200 items)', () => {
  it('ends with one JSON line: the counts right, the renderer holding a window, nothing left running', async () => {
    const run = await runBench('0.002');
    try {
      expect(run.code).toBe(0);
      const metrics = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        items: number; filter: { rowCount: number; expected: number }; heldAfterScroll: number; itemsSent: number; journal: { items: number; failed: number }; review: { position: string };
      };
      expect(metrics.items).toBe(200);
      expect(metrics.filter.rowCount).toBe(metrics.filter.expected);
      expect(metrics.filter.expected).toBeGreaterThan(0);
      expect(metrics.journal).toMatchObject({ items: 200, failed: 4 });
      expect(metrics.heldAfterScroll).toBeLessThanOrEqual(200);
      expect(metrics.review.position).toMatch(/^1 of \d+/);
      expect(groupAlive(run.pid)).toBe(false);
    } finally {
      if (groupAlive(run.pid)) process.kill(-run.pid, 'SIGKILL');
    }
  }, 240_000);
});
