import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// bench/scale-memory.ts at a tiny scale (10 photos through the engine, 10 through the real CLI): it runs end to end,
// every photo is saved by both, it ends with its JSON metrics line, and leaves no process behind. Times and memory
// figures are the bench's to print, never asserted here.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('bench/scale-memory', () => {
  it('runs at BENCH_SCALE=0.0001 and prints its metrics', { timeout: 240_000 }, async () => {
    // Its own process group, so whatever it started (sandbox, engine child, CLI and its relaunch) can be checked gone.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-memory.ts'], {
      cwd: ROOT, env: { ...process.env, BENCH_SCALE: '0.0001' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    try {
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, stderr).toBe(0);
      const metrics = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number | null>;
      expect(metrics).toMatchObject({ items: 10, engineItems: 10, engineSaved: 10, cliItems: 10, cliSaved: 10 });
      expect(metrics.enginePeakRssMB).toBeGreaterThan(0);
      expect(metrics.cliPeakRssMB).toBeGreaterThan(0);
      expect(stdout).toMatch(/^engine: 10 photos, 10\/10 saved/m);
      expect(stdout).toMatch(/^cli: 10 photos, 10\/10 saved/m);
      // Nothing of its group is left running.
      await new Promise((r) => setTimeout(r, 200));
      expect(() => process.kill(-child.pid!, 0)).toThrow();
    } finally {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone, as it should be */ }
    }
  });
});
