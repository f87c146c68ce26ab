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
  const child = spawn(process.execPath, ['bin/batchroom.mjs', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const done = new Promise<CliResult>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, onLine: (l) => listeners.push(l), done };
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return startCli(args, env).done;
}

export function ndjson(stdout: string): Array<Record<string, unknown>> {
  return stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}
