import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../main/sandbox/index';

// Helpers for tests in every area that need the sandbox: in-process (fast) or as a separate process (crash tests
// kill the engine, not the sandbox, and read the sandbox's stats afterwards).

/** Response bodies in tests are read loosely; the contract tests assert every field they rely on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseJson = any;

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Starts an in-process sandbox tuned for tests: short executions, env ignored. Close it in afterEach/afterAll. */
export function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ executionDurationMs: 150, seed: 1, useEnv: false, ...options });
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A tiny fetch wrapper bound to one sandbox and key (pass key: null to send no Authorization header). */
export function sandboxApi(sandbox: { url: string; apiKey: string }, key: string | null = sandbox.apiKey) {
  return async <T = LooseJson>(path: string, init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...init.headers };
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${sandbox.url}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // leave as text (e.g. injected malformed JSON)
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}

/** Polls an execution until it is completed or failed (or `timeoutMs` passes). */
export async function waitForExecution(
  sandbox: { url: string; apiKey: string },
  executionId: string,
  { timeoutMs = 10_000, intervalMs = 25 } = {},
): Promise<LooseJson> {
  const api = sandboxApi(sandbox);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(`/executions/${executionId}`);
    if (status !== 200) throw new Error(`status poll answered ${status}: ${JSON.stringify(body)}`);
    if (body.status === 'completed' || body.status === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`execution ${executionId} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A small real image as a data URL (PNG by default), for execute requests. */
export async function tinyImageDataUrl(
  { width = 64, height = 48, format = 'png', colour = '#3366aa' }: { width?: number; height?: number; format?: 'png' | 'jpeg' | 'webp'; colour?: string } = {},
): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: colour } }).toFormat(format).toBuffer();
  return `data:image/${format};base64,${bytes.toString('base64')}`;
}

export interface SpawnedSandbox {
  url: string;
  apiKey: string;
  process: ChildProcess;
  /** Starts an outage of `ms` in the sandbox process (see RunningSandbox.setOutage). */
  setOutage(ms: number): Promise<void>;
  /** Sends the signal (default SIGTERM) and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `node bin/batchroom.mjs sandbox --port 0 --json [...args]` and reads its first stdout line. */
const PARENT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function spawnSandbox(args: string[] = [], { env = {}, timeoutMs = 20_000 }: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<SpawnedSandbox> {
  const child = spawn(process.execPath, ['bin/batchroom.mjs', 'sandbox', '--port', '0', '--json', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // If the test process dies first, the sandbox must not outlive it: on exit, and on a signal that would end it
  // without 'exit' (a bench stopped with Ctrl-C or kill) — then the signal is raised again, so it still ends.
  const reap = () => child.kill('SIGKILL');
  const onSignal = (signal: NodeJS.Signals) => {
    reap();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', reap);
  for (const signal of PARENT_SIGNALS) process.once(signal, onSignal);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', reap);
      for (const signal of PARENT_SIGNALS) process.off(signal, onSignal);
      resolve();
    }),
  );
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill('SIGKILL');
      reject(new Error(`sandbox did not print its address within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
        resolve({ url, apiKey, process: child, kill, setOutage: (ms) => setRemoteOutage(url, apiKey, ms) });
      } catch {
        void kill('SIGKILL');
        reject(new Error(`unexpected first line from the sandbox: ${line}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited (${code}) before printing its address; stderr: ${stderr}`));
    });
  });
}

/** Reads `/sandbox/stats` of a sandbox in another process. */
export async function fetchSandboxStats(url: string): Promise<LooseJson> {
  const response = await fetch(`${url.replace(/\/api\/v1\/?$/, '')}/sandbox/stats`);
  return (await response.json()) as LooseJson;
}

/** Changes fault settings of a sandbox in another process (the admin routes need a key: docs/sandbox.md). */
export async function setRemoteFaults(url: string, apiKey: string, faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${url.replace(/\/api\/v1\/?$/, '')}/sandbox/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`setting faults failed: ${response.status} ${await response.text()}`);
}

/** Starts an outage of `ms` in a sandbox in another process: it answers, then refuses connections for `ms`. */
export async function setRemoteOutage(url: string, apiKey: string, ms: number): Promise<void> {
  const response = await fetch(`${url.replace(/\/api\/v1\/?$/, '')}/sandbox/outage`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ ms }),
  });
  if (!response.ok) throw new Error(`starting an outage failed: ${response.status} ${await response.text()}`);
}
