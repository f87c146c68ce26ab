import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, runCli, startCli, type CliProcess } from './run-cli';

// "Paid once" across what people actually do with the command (issue 29): the same command after Ctrl-C, after
// kill -9 and after a closed pipe, and two of the same command at once on one state folder. Real processes, real
// signals, a real service in this process (so killing the CLI does not kill the service). Each case counts the
// service's executions, the files on disk and the temp files left.

let dir: string;
let sandbox: RunningSandbox;
let photos: string;
const PHOTOS = 4;
const running: CliProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-paid-once-'));
  sandbox = await startTestSandbox({ executionDurationMs: 1500 });
  photos = join(dir, 'photos');
  await mkdir(photos, { recursive: true });
  for (let i = 0; i < PHOTOS; i++) {
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 40 * i, g: 120, b: 200 - 30 * i } } }).jpeg().toFile(join(photos, `p${i}.jpg`));
  }
});

afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** One state folder and one output folder per case; `look` keeps the cases' photos distinct units. */
function setup(name: string) {
  const env = cliEnv(join(dir, `state-${name}`), { BATCHROOM_API_KEY: sandbox.apiKey });
  const out = join(dir, `out-${name}`);
  const args = ['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', `look=${name}`, '--yes', '--out', out, photos];
  return { env, out, args };
}

function start(args: string[], env: Record<string, string>): CliProcess {
  const cli = startCli(args, env);
  running.push(cli);
  return cli;
}

/** Resolves once the CLI printed a line matching `test` (its NDJSON event). */
const lineMatching = (cli: CliProcess, test: (event: Record<string, unknown>) => boolean) => new Promise<void>((resolve) => {
  cli.onLine((line) => {
    try { if (test(JSON.parse(line) as Record<string, unknown>)) resolve(); } catch { /* not JSON */ }
  });
});

async function filesIn(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [] as string[])).sort();
}

const executionsSince = (before: number) => sandbox.stats().executionsCreated - before;

describe('paid once across interrupted and repeated commands', { timeout: 120_000 }, () => {
  it.each([
    ['SIGINT', 'ctrl-c'],
    ['SIGTERM', 'sigterm'],
    ['SIGKILL', 'kill-9'],
  ] as const)('%s right after "Batch started", then the same command again: executions = photos, one file each', async (signal, name) => {
    const { env, out, args } = setup(name);
    const before = sandbox.stats().executionsCreated;
    const first = start(args, env);
    // Once some are at the service (an execution id known), as a user presses Ctrl-C a moment after the start line.
    await lineMatching(first, (e) => e.type === 'item' || (e.type === 'progress' && JSON.stringify(e).includes('"submitted"')) || executionsSince(before) >= 2);
    while (executionsSince(before) < 2) await new Promise((r) => setTimeout(r, 10));
    first.child.kill(signal);
    await first.done;

    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    const events = ndjson(second.stdout);
    const estimate = events.find((e) => e.type === 'estimate') as { following: unknown[]; totalCost: number } | undefined;
    // The photos the first run had sent are followed, not paid again.
    expect(estimate?.following.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(events.pop()).toMatchObject({ type: 'summary', saved: PHOTOS, failed: 0 });
    expect(executionsSince(before)).toBe(PHOTOS);
    const files = await filesIn(out);
    expect(files.filter((f) => !f.startsWith('.'))).toHaveLength(PHOTOS);
    expect(files.some((f) => f.includes('(2)'))).toBe(false);
    expect(files.filter((f) => f.startsWith('.batchroom-'))).toEqual([]);
  });

  it('a closed pipe (`| head -1`) stops the command like Ctrl-C; the same command again pays nothing twice', async () => {
    const { env, out, args } = setup('pipe');
    const before = sandbox.stats().executionsCreated;
    const first = start(args, env);
    await lineMatching(first, () => executionsSince(before) >= 2);
    while (executionsSince(before) < 2) await new Promise((r) => setTimeout(r, 10));
    first.child.stdout!.destroy(); // the reader is gone: the next write is EPIPE
    const stopped = await first.done;
    expect(stopped.stderr).not.toMatch(/EPIPE|Unhandled/);

    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(ndjson(second.stdout).pop()).toMatchObject({ type: 'summary', saved: PHOTOS, failed: 0 });
    expect(executionsSince(before)).toBe(PHOTOS);
    expect((await filesIn(out)).filter((f) => !f.startsWith('.'))).toHaveLength(PHOTOS);
  });

  it('the same command twice at once on one state folder: one runs, the other says so; executions = photos', async () => {
    const { env, out, args } = setup('twice');
    const before = sandbox.stats().executionsCreated;
    const [a, b] = await Promise.all([start(args, env).done, start(args, env).done]);
    const codes = [a.code, b.code].sort();
    expect(codes[0], `${a.stderr}\n${b.stderr}`).toBe(0);
    // The other one either finished on the first one's claims (0 credits) or was refused by the engine lock.
    if (codes[1] !== 0) expect(`${a.stderr}${b.stderr}`).toMatch(/already running batches/);
    expect(executionsSince(before)).toBe(PHOTOS);
    const files = await filesIn(out);
    expect(files.filter((f) => !f.startsWith('.'))).toHaveLength(PHOTOS);
    expect(files.some((f) => f.includes('(2)'))).toBe(false);
  });
});
