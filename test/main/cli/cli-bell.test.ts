import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ringBellAtEnd } from '../../../main/cli/bell';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, runCli } from './run-cli';

const BELL = '\u0007';
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function session(options: { quiet?: boolean; json?: boolean; notifyWhenDone?: boolean | 'unreadable' }) {
  const call = (async () => {
    if (options.notifyWhenDone === 'unreadable') throw new Error('settings unreadable');
    return { settings: { ...DEFAULT_SETTINGS, notifyWhenDone: options.notifyWhenDone ?? true }, warnings: [] };
  }) as never;
  return { call, out: { quiet: options.quiet ?? false, json: options.json ?? false } as never };
}

async function rung(isTTY: boolean | undefined, options: Parameters<typeof session>[0] = {}): Promise<string> {
  let written = '';
  await ringBellAtEnd(session(options), { isTTY, write: (text: string) => (written += text) });
  return written;
}

describe('the bell at the end of run/resume', () => {
  it('rings at a terminal only, not with --quiet or --json, and not with notifyWhenDone off', async () => {
    expect(await rung(true)).toBe(BELL);
    expect(await rung(false)).toBe('');
    expect(await rung(undefined)).toBe('');
    expect(await rung(true, { quiet: true })).toBe('');
    expect(await rung(true, { json: true })).toBe('');
    expect(await rung(true, { notifyWhenDone: false })).toBe('');
    // Settings that cannot be read do not fail the command: the default (on) holds.
    expect(await rung(true, { notifyWhenDone: 'unreadable' })).toBe(BELL);
  });
});

let dir: string;
let sandbox: RunningSandbox;
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-bell-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a real run', { timeout: 120_000 }, () => {
  it('writes no bell when stdout is not a terminal', async () => {
    const shoot = join(dir, 'piped');
    await mkdir(shoot);
    await writePhotos(shoot, 2);
    const env = cliEnv(join(dir, 'state-piped'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const result = await runCli(['--service-url', sandbox.url, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', shoot], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Results in .*Batchroom/); // the human summary, where a terminal would get the bell
    expect(result.stdout + result.stderr).not.toContain(BELL);
  });

  // util-linux `script` gives the command a pseudo-terminal: the run a person starts at a terminal.
  it.runIf(hasScript)('rings once at the end when stdout is a terminal, and not with --quiet', async () => {
    const shoot = join(dir, 'tty');
    await mkdir(shoot);
    await writePhotos(shoot, 2);
    const env = cliEnv(join(dir, 'state-tty'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const atTerminal = (extra: string[], photos: string) => new Promise<{ code: number | null; output: string }>((resolve) => {
      const command = [process.execPath, 'bin/batchroom.mjs', '--service-url', sandbox.url, ...extra, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', photos]
        .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('close', (code) => resolve({ code, output }));
    });
    const loud = await atTerminal([], shoot);
    expect(loud.code, loud.output).toBe(0);
    expect(loud.output.split(BELL)).toHaveLength(2);
    expect(loud.output.trimEnd().endsWith(BELL)).toBe(true);
    const other = join(dir, 'tty-quiet');
    await mkdir(other);
    await writePhotos(other, 1);
    const quiet = await atTerminal(['--quiet'], other);
    expect(quiet.code, quiet.output).toBe(0);
    expect(quiet.output).not.toContain(BELL);
  });
});
