import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { until } from '../../helpers/until';

// bench/scale-journal.ts at a tiny scale (200 items, one kill-and-restart round): it builds the journal, compacts it
// (every item removed, the saved count kept), restarts a killed `batchroom resume` that then sends again, ends with
// its JSON metrics line and leaves no process behind. Times and sizes are the bench's to print, never asserted here.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('bench/scale-journal', () => {
  it('runs at BENCH_SCALE=0.002 and prints its metrics', { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-journal.ts'], {
      cwd: ROOT, env: { ...process.env, BENCH_SCALE: '0.002', BENCH_JOURNAL_RESTARTS: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    try {
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, stderr).toBe(0);
      const metrics = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(metrics, stdout).toMatchObject({ items: 200, itemsCompacted: 200, savedAfter: 200, restartsRun: 2, restartsThatSent: 2 });
      expect(stdout).toMatch(/^journal bytes per finished item, N=200: \d+ B/m);
      expect(stdout).toMatch(/^ {2}after compaction: \d+ B/m);
      expect(stdout).toMatch(/^kill -9 mid-batch, N=200: /m);
      const gone = () => { try { process.kill(-child.pid!, 0); return false; } catch { return true; } };
      await until(gone, 'every process of the bench\'s group to end', { timeoutMs: 10_000 });
    } finally {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone, as it should be */ }
    }
  });
});
