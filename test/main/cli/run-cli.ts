import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  /** Resolves with each complete stdout line as it arrives. */
  onLine(listener: (line: string) => void): void;
  done: Promise<CliResult>;
}

/** The environment of a CLI test: no key from the developer's shell, no keychain, this state dir. */
export function cliEnv(stateDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('BATCHROOM_') && k !== 'DBUS_SESSION_BUS_ADDRESS') env[k] = v;
  return { ...env, BATCHROOM_STATE_DIR: stateDir, DISPLAY: '', ...extra };
}

/** Spawns the real command (`node bin/batchroom.mjs …`), as a user or a script would. */
export function startCli(args: string[], env: Record<string, string>): CliProcess {
  // Its own process group: `run` relaunches itself under the memory profile (bin/memory-profile.mjs), so the pid
  // spawned here is a wrapper. It passes SIGINT and SIGTERM on, but nothing can pass SIGKILL on: sent to the wrapper
  // alone it left the real command running — a kill -9 test that killed nothing, and a process left behind. So
  // SIGKILL goes to the whole group; the others to the wrapper, as `kill <pid>` of the command would.
  const child = spawn(process.execPath, ['bin/batchroom.mjs', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const killOne = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    if (child.pid === undefined || (signal !== 'SIGKILL' && signal !== 9)) return killOne(signal);
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return killOne(signal);
    }
  };
  let stdout = '';
  let stderr = '';
  let partial = '';
  const listeners: Array<(line: string) => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) for (const l of listeners) l(line);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Done once every process of the group is gone (reaped too): the real command's engine lock is then free, as it
  // is for a user whose shell prompt came back.
  const done = new Promise<CliResult>((resolve) => child.once('close', (code) => {
    void groupGone(child.pid).then(() => resolve({ code, stdout, stderr }));
  }));
  return { child, onLine: (l) => listeners.push(l), done };
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return startCli(args, env).done;
}

export function ndjson(stdout: string): Array<Record<string, unknown>> {
  return stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Resolves when no process of group `pid` is left (at most 10 s: a test then fails on its own terms). */
async function groupGone(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  for (let waited = 0; waited < 10_000; waited += 20) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
