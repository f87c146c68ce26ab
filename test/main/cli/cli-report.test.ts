import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { JobReportSchema, type JobReport } from '../../../shared/reports/job-report';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, runCli } from './run-cli';

// `batchroom report --by job|client` against the real sandbox, which keeps its own ledger of executions and credits:
// real batches through the real command, then the report's credits held against the sandbox's charges and refunds
// and the balance it reports (issue 32 #4: "the totals add up to the service balance change").

let dir: string;
let sandbox: RunningSandbox;
let env: Record<string, string>;
const base = () => ['--service-url', sandbox.url];

async function photos(name: string, n: number, shade: number): Promise<string> {
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < n; i++) {
    await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 30 * i, g: shade, b: 250 - 30 * i } } }).jpeg().toFile(join(folder, `p${i}.jpg`));
  }
  return folder;
}

async function run(folder: string, tags: string[]): Promise<void> {
  const result = await runCli([...base(), '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', `${folder}-out`, ...tags, folder], env);
  expect(result.stderr).not.toMatch(/error/i);
  expect([0, 1]).toContain(result.code); // 1: some photos failed (the injected failures)
}

async function balance(): Promise<number> {
  const result = await runCli([...base(), '--json', 'balance'], env);
  expect(result.code).toBe(0);
  return (ndjson(result.stdout)[0] as { apiCredits: number }).apiCredits;
}

async function report(by: 'job' | 'client'): Promise<JobReport> {
  const result = await runCli([...base(), '--json', 'report', '--by', by], env);
  expect(result.code).toBe(0);
  const line = ndjson(result.stdout).find((e) => e.type === 'report')!;
  const { type: _type, ...rest } = line;
  return JobReportSchema.parse(rest);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-report-'));
  sandbox = await startTestSandbox({ credits: 1000 });
  env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom report --by against the sandbox\'s own ledger', { timeout: 120_000 }, () => {
  let startBalance: number;
  let endBalance: number;

  beforeAll(async () => {
    startBalance = await balance();
    await run(await photos('wedding', 3, 10), ['--job', 'Smith wedding', '--client', 'Smith']);
    // Half the executions fail and are refunded: the report counts them failed and charges them nothing.
    sandbox.setFaults({ executionFailureRate: 0.5 });
    await run(await photos('catalogue', 4, 90), ['--client', 'Acme']);
    sandbox.setFaults({ executionFailureRate: 0 });
    await run(await photos('loose', 2, 170), []);
    endBalance = await balance();
  }, 120_000);

  it('credits per client add up to what the sandbox charged less what it refunded, and to the balance change', async () => {
    const stats = sandbox.stats();
    const net = stats.creditsCharged - stats.creditsRefunded;
    expect(net).toBeGreaterThan(0);
    expect(stats.creditsRefunded).toBeGreaterThan(0); // the injected failures happened (seeded)
    const byClient = await report('client');
    expect(byClient.source).toBe('journal');
    expect(byClient.totals.credits).toBeCloseTo(net, 6);
    expect(byClient.totals.batches).toBe(3);
    expect(byClient.totals.saved + byClient.totals.failed).toBe(9);
    expect(byClient.totals.failed).toBe(stats.executionsByStatus.failed);
    expect(byClient.groups.map((g) => g.label)).toEqual(expect.arrayContaining(['Smith', 'Acme', '(no client)']));
    expect(byClient.groups.at(-1)!.label).toBe('(no client)');
    const sum = byClient.groups.reduce((s, g) => s + g.credits, 0);
    expect(sum).toBeCloseTo(byClient.totals.credits, 6);
    // The balance readings the commands took (the estimate's and `batchroom balance`'s) bracket the batches.
    expect(startBalance - endBalance).toBeCloseTo(net, 6);
    expect(byClient.balance).toMatchObject({ coversPeriod: true });
    expect(byClient.balance!.change).toBeCloseTo(endBalance - startBalance, 6);
    expect(byClient.balance!.batchroomCredits).toBeCloseTo(net, 6);
    expect(byClient.balance!.unexplained).toBeCloseTo(0, 6);
  });

  it('by job: the one job and "(no job)"; text and CSV say the same', async () => {
    const byJob = await report('job');
    expect(byJob.groups.map((g) => [g.label, g.batches, g.saved])).toEqual([['Smith wedding', 1, 3], ['(no job)', 2, byJob.totals.saved - 3]]);
    const text = await runCli([...base(), 'report', '--by', 'job'], env);
    expect(text.stdout).toContain('Smith wedding');
    expect(text.stdout).toMatch(/Service balance changed by -[\d.]+ credits/);
    expect(text.stdout).toContain('They add up.');
    const csv = await runCli([...base(), 'report', '--by', 'job', '--csv', '--from', '2000-01-01'], env);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe('group_by,group,from,to,batches,photos_saved,photos_failed,credits_charged,charged_no_result,charged_no_result_credits');
    expect(lines.at(-1)).toMatch(/^job,\(total\),/);
    expect(lines).toHaveLength(4);
  });

  it('a period before the batches has none of them; a bad date is a usage error', async () => {
    const empty = await runCli([...base(), '--json', 'report', '--by', 'client', '--to', '2001-01-01'], env);
    const line = ndjson(empty.stdout).find((e) => e.type === 'report') as unknown as JobReport;
    expect(line.groups).toEqual([]);
    expect(line.totals.credits).toBe(0);
    const bad = await runCli([...base(), 'report', '--by', 'job', '--from', '2026-02-31'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a day of the calendar');
  });
});
