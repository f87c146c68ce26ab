// One-photo `batchroom run` start-up: from spawning the command to the sandbox receiving its first execute (the
// submit that spends a credit). The sandbox runs in this process; Node's `http.server.request.start` diagnostics
// channel stamps each request the moment the server parses it, so nothing sits between the CLI and the sandbox.
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startSandbox } from '../main/sandbox/index';

export interface RunStart {
  /** spawn → first POST …/execute, ms, one per run. */
  submitMs: number[];
  /** spawn → process exit (result saved), ms. */
  exitMs: number[];
}

const EXECUTE = /^\/api\/v1\/workflows\/[^/]+\/execute$/;

/**
 * `runs` one-photo runs (plus one unmeasured first run that builds the state folder and warms the disk cache), each a
 * new photo of `width`×`height` into a new output folder, in one state folder as a user's second run would be.
 */
export async function measureRunStart(root: string, { runs = 5, width = 4000, height = 3000, env = {} as NodeJS.ProcessEnv } = {}): Promise<RunStart> {
  const sandbox = await startSandbox({ executionDurationMs: 50, seed: 1, useEnv: false, credits: 1_000_000 });
  const dir = await mkdtemp(join(tmpdir(), 'batchroom-run-start-'));
  let firstExecute: number | null = null;
  const onRequest = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (firstExecute === null && request.method === 'POST' && EXECUTE.test(request.url ?? '')) firstExecute = performance.now();
  };
  subscribe('http.server.request.start', onRequest);
  const result: RunStart = { submitMs: [], exitMs: [] };
  try {
    for (let i = 0; i <= runs; i++) {
      const photos = join(dir, `photos-${i}`);
      await mkdir(photos);
      // A distinct photo each run: the journal would otherwise skip it as done.
      await sharp({ create: { width, height, channels: 3, background: { r: (i * 37) % 256, g: 90, b: 140 } } })
        .jpeg({ quality: 90 }).toFile(join(photos, `photo-${i}.jpg`));
      firstExecute = null;
      const args = ['--service-url', sandbox.url, '--quiet', 'run', '--workflow', 'color-grade',
        '--text', 'look=warm', '--yes', '--out', join(dir, `out-${i}`), photos];
      const cliEnv: NodeJS.ProcessEnv = { ...withoutBatchroomEnv(process.env), ...env, BATCHROOM_STATE_DIR: join(dir, 'state'), BATCHROOM_API_KEY: sandbox.apiKey, DISPLAY: '' };
      const started = performance.now();
      // The command itself, as npm's link to it runs it (its first line starts Node under the memory profile).
      const child = spawn(join(root, 'bin/batchroom.mjs'), args, { cwd: root, env: cliEnv, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        const code = await new Promise<number | null>((resolve, reject) => {
          child.once('error', reject);
          child.once('exit', (c) => resolve(c));
        });
        const ended = performance.now();
        if (code !== 0) throw new Error(`batchroom run exited ${code}: ${stderr}`);
        if (firstExecute === null) throw new Error('batchroom run ended without submitting');
        if (i === 0) continue;
        result.submitMs.push((firstExecute as number) - started);
        result.exitMs.push(ended - started);
      } finally {
        killGroup(child.pid);
      }
    }
  } finally {
    unsubscribe('http.server.request.start', onRequest);
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
  return result;
}

/** The CLI re-executes itself under the memory profile: the whole group goes, whatever is left of it. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function withoutBatchroomEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('BATCHROOM_') && key !== 'DBUS_SESSION_BUS_ADDRESS'));
}
