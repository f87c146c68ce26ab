import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../helpers/until';

// A sandbox started by a test or bench (test/helpers/sandbox.ts spawnSandbox) never outlives the process that started
// it — also when that process is ended by a signal (a bench stopped with Ctrl-C or kill), which skips 'exit'.

const helper = resolve(import.meta.dirname, '..', '..', 'helpers', 'sandbox.ts');
let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Running and not a zombie waiting to be reaped by init. */
function alive(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().startsWith('Z');
  } catch {
    return false;
  }
}

describe('spawnSandbox', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('a parent ended by %s takes its sandbox with it, and still ends', { timeout: 30_000 }, async (signal) => {
    dir ||= await mkdtemp(join(tmpdir(), 'batchroom-reap-'));
    const script = join(dir, 'parent.mts');
    await writeFile(script, `import { spawnSandbox } from ${JSON.stringify(helper)};\nconst s = await spawnSandbox();\nconsole.log(s.process.pid);\nsetInterval(() => undefined, 1000);\n`);
    const parent = spawn(process.execPath, ['--import', 'tsx', script], { cwd: resolve(import.meta.dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const sandboxPid = Number(await new Promise<string>((done) => createInterface({ input: parent.stdout! }).once('line', done)));
    expect(alive(sandboxPid)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((done) => parent.once('exit', (_code, by) => done(by)));
    parent.kill(signal);
    expect(await ended).toBe(signal);
    try {
      await until(() => !alive(sandboxPid), 'the sandbox to end with its parent', { timeoutMs: 5_000 });
    } finally {
      if (alive(sandboxPid)) process.kill(sandboxPid, 'SIGKILL');
    }
  });
});
