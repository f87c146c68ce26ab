import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { until } from '../../helpers/until';

// Runs one bench/*.ts in its own process group, as `npm run bench` does, for the scale benches' smoke tests. The group
// is what makes "nothing left running" checkable: the bench's sandbox, CLI, relaunch and ExifTool all belong to it.
// The group is killed whatever happens — at the run's own deadline (before vitest's), and when the test ends for any
// reason, a vitest timeout included — so a hung bench never outlives its test.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface BenchRun {
  /** Exit code; null when the run was killed at its deadline. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last stdout line parsed (each bench ends with one JSON line of metrics); null when it is not JSON. */
  metrics: Record<string, unknown> | null;
  /** Resolves once no process of the bench's group is left (fails after 10 s: something outlived the bench). */
  groupGone: () => Promise<void>;
}

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

const killGroup = (pgid: number) => {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

export function runBench(file: string, env: Record<string, string>, deadlineMs: number): Promise<BenchRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${file}`], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  const pgid = child.pid!;
  onTestFinished(() => killGroup(pgid));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const deadline = setTimeout(() => killGroup(pgid), deadlineMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(deadline);
      let metrics: Record<string, unknown> | null = null;
      try {
        metrics = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
      } catch {
        // Not a metrics line: the test's expectations say what was printed instead.
      }
      const groupGone = () => until(() => !groupAlive(pgid), `every process of bench/${file}'s group to end`, { timeoutMs: 10_000 });
      resolve({ code, stdout, stderr, metrics, groupGone });
    });
  });
}
