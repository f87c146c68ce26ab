import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { until } from '../../helpers/until';

// bench/scale-planning.ts at a tiny scale (10 and 50 photos, the built CLI at 50): it runs end to end, every estimate
// counts every photo, Start after the estimate reads no file, it ends with its JSON metrics line and leaves no
// process behind. Times and ratios are the bench's to print, never asserted here.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('bench/scale-planning', () => {
  it('runs at BENCH_SCALE=0.0005 and prints its metrics', { timeout: 240_000 }, async () => {
    // Its own process group, so whatever it started (the CLI and its relaunch) can be checked gone.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-planning.ts'], {
      cwd: ROOT, env: { ...process.env, BENCH_SCALE: '0.0005' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    try {
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, stderr).toBe(0);
      const metrics = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(metrics, stdout).toMatchObject({ points: [10, 50], countsRight: true, cliCounts: [50, 50], startReads: 0, startTotal: 10 });
      expect(metrics.n50).toMatchObject({ coldCount: 50, warmCount: 50 });
      expect(stdout).toMatch(/^N=50: estimate cold .* counted 50\/50 of 50/m);
      expect(stdout).toMatch(/^built CLI, N=50: .* counted 50\/50/m);
      // Nothing of its group is left running (given a moment: ExifTool's perl ends after the bench closed its pipes).
      const gone = () => { try { process.kill(-child.pid!, 0); return false; } catch { return true; } };
      await until(gone, 'every process of the bench\'s group to end', { timeoutMs: 10_000 });
    } finally {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone, as it should be */ }
    }
  });
});
