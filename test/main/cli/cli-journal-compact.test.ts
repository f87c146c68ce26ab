import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, runCli } from './run-cli';

// `batchroom journal compact` with the real command against a real service: a compacted batch's photos are still
// "already done, 0 credits" for the same command again (nothing sent), and the job report gives the same figures.

let dir: string;
let sandbox: RunningSandbox;
const PHOTOS = 3;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-compact-cli-'));
  sandbox = await startTestSandbox({ executionDurationMs: 100 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('journal compact', { timeout: 180_000 }, () => {
  it('keeps the done ledger and the report: the same command again pays nothing', async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos, { recursive: true });
    for (let i = 0; i < PHOTOS; i++) {
      await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 60 * i, g: 90, b: 200 - 50 * i } } }).jpeg().toFile(join(photos, `p${i}.jpg`));
    }
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const run = ['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--job', 'spring', '--yes', '--out', join(dir, 'out'), photos];
    const report = ['--service-url', sandbox.url, '--json', 'report', '--by', 'job'];

    const first = await runCli(run, env);
    expect(first.code, first.stderr).toBe(0);
    expect(ndjson(first.stdout).pop()).toMatchObject({ type: 'summary', saved: PHOTOS });
    const reportBefore = await runCli(report, env);
    expect(reportBefore.code, reportBefore.stderr).toBe(0);

    const compacted = await runCli(['--json', 'journal', 'compact', '--older-than', '0'], env);
    expect(compacted.code, compacted.stderr).toBe(0);
    const record = ndjson(compacted.stdout).pop() as { itemsRemoved: number; batchIds: string[]; bytesAfter: number; bytesBefore: number };
    expect(record).toMatchObject({ type: 'compact', itemsRemoved: PHOTOS });
    expect(record.batchIds).toHaveLength(1);

    const reportAfter = await runCli(report, env);
    expect(reportAfter.code, reportAfter.stderr).toBe(0);
    expect(ndjson(reportAfter.stdout)).toEqual(ndjson(reportBefore.stdout));

    const executions = sandbox.stats().executionsCreated;
    const again = await runCli(run, env);
    const events = ndjson(again.stdout);
    const estimate = events.find((e) => e.type === 'estimate') as { alreadyDone: unknown[]; totalCost: number } | undefined;
    expect(estimate?.alreadyDone, again.stdout).toHaveLength(PHOTOS);
    expect(estimate?.totalCost).toBe(0);
    expect(sandbox.stats().executionsCreated).toBe(executions);
  });
});
