import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// bench/scale-throughput.ts at a tiny scale in its own process (its own fixture folder, small photos): the bench
// runs end to end and reports what it measured. Only functional results are checked — counts, the metrics line,
// nothing left running — never a time or a rate's size.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

/** Whether any process of the group `pgid` is still alive (signal 0 only asks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('bench/scale-throughput.ts', () => {
  it('runs the engine and the bare loops on the same photos and prints one metrics line', async () => {
    const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-throughput-test-'));
    roots.push(root);
    // Its own process group, so every process it started (the sandbox, the memory-profile relaunch) can be found.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-throughput.ts'], {
      cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_SCALE: '0.04', BENCH_FIXTURE_ROOT: root, BENCH_PHOTO_SIZE: '1600x1072' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      expect(code, stderr).toBe(0);
      const lines = stdout.trim().split('\n');
      const metrics = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
      expect(metrics.photos).toBe(4);
      expect(metrics.executions).toBe(4);
      for (const key of ['engineFps', 'bareSequentialFps', 'bareTwoInFlightFps', 'bareBestFps', 'engineOverBare']) {
        expect(metrics[key], key).toBeGreaterThan(0);
      }
      expect(metrics.bareBestFps).toBe(Math.max(metrics.bareSequentialFps as number, metrics.bareTwoInFlightFps as number));
      expect(metrics.goal).toBe(0.9);
      expect(typeof metrics.met).toBe('boolean');
      expect(stdout).toMatch(/engine \/ best bare loop .*goal ≥ 0\.9: (met|MISSED)/);
      // The 4 photos were made in the test's own folder, and nothing is left half-written there.
      const made = await readdir(join(root, 'camera-1600x1072'));
      expect(made.sort()).toEqual(['p000.jpg', 'p001.jpg', 'p002.jpg', 'p003.jpg']);
    } finally {
      const pgid = child.pid!;
      // Nothing of the bench's may outlive it (the sandbox is its child); any that did is ended here, and fails the test.
      const alive = groupAlive(pgid);
      if (alive) process.kill(-pgid, 'SIGKILL');
      expect(alive).toBe(false);
    }
  }, 120_000);
});
