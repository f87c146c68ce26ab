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
const PHOTOS = 4;
const running: CliProcess[] = [];

let cases = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-paid-once-'));
  sandbox = await startTestSandbox({ executionDurationMs: 1500 });
});

afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** One state folder, one output folder and photos of their own (distinct content: distinct units) per case. */
async function setup(name: string) {
  const photos = join(dir, `photos-${name}`);
  await mkdir(photos, { recursive: true });
  const k = cases++;
  for (let i = 0; i < PHOTOS; i++) {
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 40 * i, g: 20 * k, b: 200 - 30 * i } } }).jpeg().toFile(join(photos, `p${i}.jpg`));
  }
  const env = cliEnv(join(dir, `state-${name}`), { BATCHROOM_API_KEY: sandbox.apiKey });
  const out = join(dir, `out-${name}`);
  const args = ['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', out, photos];
  return { env, out, args };
}

function start(args: string[], env: Record<string, string>): CliProcess {
  const cli = startCli(args, env);
  running.push(cli);
  return cli;
}

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
    const { env, out, args } = await setup(name);
    const before = sandbox.stats().executionsCreated;
    const first = start(args, env);
    // Once some are at the service (an execution id known), as a user presses Ctrl-C a moment after the start line.
    while (executionsSince(before) < 2) await new Promise((r) => setTimeout(r, 10));
    // The answers with the execution ids are back a moment after the service counted the executions.
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill(signal);
    await first.done;

    const second = await runCli(args, env);
    const events = ndjson(second.stdout);
    const estimate = events.find((e) => e.type === 'estimate') as { following: unknown[]; alreadyDone: unknown[]; totalCost: number } | undefined;
    // The photos the first run had sent are followed (or, when the restarted engine saved them before the estimate
    // looked, already done): never priced again.
    // kill -9 (of the whole command: its process group) may cut submissions between their request and their answer:
    // "may have been charged", reported by the next run and never sent again — the service has no way to look an
    // execution up without its id. Every other photo is saved once; none is lost without being named.
    const lost = (estimate as { skipped?: { reason: string }[] } | undefined)?.skipped?.filter((s) => /answer was lost/.test(s.reason)).length ?? 0;
    expect((estimate?.following.length ?? 0) + (estimate?.alreadyDone.length ?? 0) + lost, second.stderr).toBeGreaterThanOrEqual(2);
    expect(estimate?.totalCost).toBeLessThanOrEqual(PHOTOS - 2);
    expect(events.pop()).toMatchObject({ type: 'summary', failed: 0 });
    expect(executionsSince(before)).toBe(PHOTOS);
    const files = (await filesIn(out)).filter((f) => !f.startsWith('.'));
    if (signal === 'SIGKILL') expect(files.length + lost).toBe(PHOTOS);
    else expect(files).toHaveLength(PHOTOS);
    expect(files.some((f) => f.includes('(2)'))).toBe(false);
    expect(files.filter((f) => f.startsWith('.batchroom-'))).toEqual([]);
  });

  it('a closed pipe (`| head -1`) stops the command like Ctrl-C; the same command again pays nothing twice', async () => {
    const { env, out, args } = await setup('pipe');
    const before = sandbox.stats().executionsCreated;
    const first = start(args, env);
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
    const { env, out, args } = await setup('twice');
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
