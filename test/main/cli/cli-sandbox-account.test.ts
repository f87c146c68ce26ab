import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ndjson, runCli, startCli, type CliProcess } from './run-cli';

// The real command against the built-in sandbox (no key): its account lives in the state folder, so what one command
// spends the next one sees, as with a real account.

let dir: string;
let photos: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-account-'));
  photos = join(dir, 'photos');
  await mkdir(photos);
  for (let i = 0; i < 2; i++) {
    await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 60 * i, g: 120, b: 90 } } }).jpeg().toFile(join(photos, `p${i}.jpg`));
  }
});

const started: CliProcess[] = [];

afterAll(async () => {
  for (const cli of started) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const apiCredits = async (env: Record<string, string>): Promise<number> => {
  const balance = await runCli(['--json', 'balance'], env);
  expect(balance.code, balance.stderr).toBe(0);
  return (JSON.parse(balance.stdout) as { apiCredits: number }).apiCredits;
};

describe('the built-in sandbox account across commands', { timeout: 120_000 }, () => {
  it('the balance goes down with each run and stays down in the next command', async () => {
    const env = cliEnv(join(dir, 'state'));
    const before = await apiCredits(env);
    expect(before).toBe(1000);
    const first = await runCli(['run', '--workflow', 'color-grade', '--text', 'look=warm', '--out', join(dir, 'out'), '--yes', photos], env);
    expect(first.code, first.stderr).toBe(0);
    expect(await apiCredits(env)).toBe(998);
    // The same photos again, paid again on purpose: the second command's sandbox charges the same account.
    const second = await runCli(['run', '--workflow', 'color-grade', '--text', 'look=warm', '--out', join(dir, 'out'), '--rerun', '--yes', photos], env);
    expect(second.code, second.stderr).toBe(0);
    expect(await apiCredits(env)).toBe(996);
    // Another state folder is another account.
    expect(await apiCredits(cliEnv(join(dir, 'other-state')))).toBe(1000);
  });

  it('`balance` says what API credits and web credits are, one line each', async () => {
    const result = await runCli(['balance'], cliEnv(join(dir, 'words')));
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const api = lines.findIndex((line) => line.startsWith('API credits: 1,000 free test credits'));
    const web = lines.findIndex((line) => line.startsWith('Web credits: 645 free test credits'));
    expect(api).toBeGreaterThanOrEqual(0);
    expect(web).toBeGreaterThan(api);
    expect(lines[api + 1]).toMatch(/What Batchroom spends/);
    expect(lines[web + 1]).toMatch(/website only: Batchroom and the API never spend them/);
    expect(result.stdout).toMatch(/kept in the state folder \(sandbox-account\.db\)/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('Ctrl-C after the photos were sent, then `resume`: their results are saved and paid for once', async () => {
    const env = cliEnv(join(dir, 'interrupted'));
    const out = join(dir, 'interrupted-out');
    const cli = startCli(['--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--out', out, '--yes', photos], env);
    started.push(cli);
    let submitted = 0;
    await new Promise<void>((resolve, reject) => {
      cli.onLine((line) => {
        const record = JSON.parse(line) as { type?: string; state?: string };
        if (record.type === 'item' && record.state === 'submitted' && ++submitted === 2) resolve();
      });
      void cli.done.then((r) => reject(new Error(`run ended before both photos were sent: ${r.stdout}\n${r.stderr}`)));
    });
    cli.child.kill('SIGINT');
    const interrupted = await cli.done;
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(ndjson(interrupted.stdout).some((r) => r.type === 'summary')).toBe(false);
    expect(await apiCredits(env)).toBe(998);

    // The executions the stopped command's sandbox was running are run by this one's: nothing is sent or paid again.
    const resumed = await runCli(['--json', 'resume'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ndjson(resumed.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 2, failed: 0, unknown: 0, chargedNoResult: 0 });
    expect(await apiCredits(env)).toBe(998);
  });
});
