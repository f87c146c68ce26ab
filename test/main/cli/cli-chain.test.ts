import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { CHAIN_FINALS, CHAIN_PHOTOS, chainCase, filesUnder, sandboxCounters, type Counters } from './chain-fixture';
import { ndjson, runCli, startCli, type CliProcess } from './run-cli';

// Chains (issue 32 #3) with the real command, real signals and a real service in this process (killing the CLI does
// not kill the service, whose counters say what was paid and what was uploaded): a 3-step recipe, kill -9 between
// steps and during a step, then the same command again. Each step is paid once per photo; each photo is uploaded
// once (steps 2 and 3 are sent the previous result's URL), unless the service dropped that result: then the saved
// file is uploaded instead, and nothing is paid twice.

const PHOTOS = CHAIN_PHOTOS;
const STEPS = 3;
let dir: string;
let sandbox: RunningSandbox;
const running: CliProcess[] = [];
let cases = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-chain-'));
  sandbox = await startTestSandbox({ executionDurationMs: 600 });
});

afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function setup(name: string, keepSteps = false) {
  const { env, out, photos, recipe } = await chainCase(dir, sandbox, name, cases++, keepSteps);
  const args = ['--service-url', sandbox.url, '--json', 'run', '--recipe', recipe, '--recursive', '--yes', '--out', out, photos];
  return { env, out, args };
}

function start(args: string[], env: Record<string, string>): CliProcess {
  const cli = startCli(args, env);
  running.push(cli);
  return cli;
}

const counters = () => sandboxCounters(sandbox).now();
const since = (before: Counters) => sandboxCounters(sandbox).since(before);

/** Resolves when the running command prints a record that `match` accepts. */
const waitForRecord = (cli: CliProcess, match: (record: Record<string, unknown>) => boolean) => new Promise<void>((resolve) => {
  cli.onLine((line) => {
    try {
      if (match(JSON.parse(line) as Record<string, unknown>)) resolve();
    } catch { /* not JSON */ }
  });
});

describe('chains: every step paid once, every photo uploaded once', { timeout: 180_000 }, () => {
  it('prices each step before step 1, then runs all three: 3 executions a photo, 1 upload a photo, the rest by URL', async () => {
    const { env, out, args } = await setup('straight');
    const before = counters();
    const result = await runCli(args, env);
    expect(result.code, result.stderr).toBe(0);
    const records = ndjson(result.stdout);
    const estimate = records.find((r) => r.type === 'chainEstimate') as { steps: { credits: number; photos: number }[]; totalCost: number; perPhoto: number };
    expect(estimate.steps.map((s) => s.credits)).toEqual([PHOTOS * 1, PHOTOS * 2, PHOTOS * 2]);
    expect(estimate.perPhoto).toBe(5);
    expect(estimate.totalCost).toBe(PHOTOS * 5);
    expect(since(before)).toEqual({ executions: PHOTOS * STEPS, uploads: PHOTOS, urls: PHOTOS * (STEPS - 1) });
    // Only the last step's results are in the output folder, each photo's sub-folder kept.
    expect(await filesUnder(out)).toEqual(CHAIN_FINALS);
    // The same command again: every step done, nothing paid.
    const again = counters();
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect((ndjson(second.stdout).find((r) => r.type === 'chainEstimate') as { totalCost: number }).totalCost).toBe(0);
    expect(since(again)).toEqual({ executions: 0, uploads: 0, urls: 0 });
  });

  it.each([
    ['between steps 1 and 2', 'between', (r: Record<string, unknown>) => r.type === 'summary'],
    ['during step 2', 'during', (r: Record<string, unknown>) => r.type === 'batch' && (r.chain as { step?: number } | undefined)?.step === 2],
  ] as const)('kill -9 %s, then the same command: each step paid once per photo, each photo uploaded once', async (_label, name, when) => {
    const { env, out, args } = await setup(name);
    const before = counters();
    const first = start(args, env);
    await waitForRecord(first, when);
    if (name === 'during') {
      // Once step 2's executions are at the service (their ids journalled a moment later) and running. A kill while a
      // request is on its way is cli-paid-once's case: that photo is then "may have been charged", never sent again.
      while (since(before).executions < 2 * PHOTOS) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300));
    }
    first.child.kill('SIGKILL');
    await first.done;
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(since(before)).toEqual({ executions: PHOTOS * STEPS, uploads: PHOTOS, urls: PHOTOS * (STEPS - 1) });
    expect(await filesUnder(out)).toEqual(CHAIN_FINALS);
  });

  it('a step whose earlier result the service no longer has sends the saved file instead (kept steps in step-<n> folders)', async () => {
    const { env, out, args } = await setup('expired', true);
    const before = counters();
    const first = start(args, env);
    await waitForRecord(first, (r) => r.type === 'summary');
    first.child.kill('SIGKILL');
    await first.done;
    expect(sandbox.expireResults()).toBeGreaterThan(0);
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    // Step 2's photos were uploaded from the saved step-1 files (their URLs answered 410); step 3 went by URL again.
    expect(since(before)).toEqual({ executions: PHOTOS * STEPS, uploads: PHOTOS * 2, urls: PHOTOS });
    const files = await filesUnder(out);
    expect(files.filter((f) => f.startsWith('step-1/'))).toEqual(['step-1/day-1/p0.jpg', 'step-1/p1.jpg', 'step-1/p2.jpg']);
    expect(files.filter((f) => f.startsWith('step-2/'))).toHaveLength(PHOTOS);
    expect(files.filter((f) => !f.startsWith('step-'))).toEqual(CHAIN_FINALS);
  });
});
