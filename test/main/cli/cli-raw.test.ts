import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { buildDng, previewJpeg } from '../images/dng-kit';
import { cliEnv, ndjson, runCli } from './run-cli';

// `batchroom run` with camera RAW files, against a sandbox in this process (the real command, as a user runs it).

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-raw-'));
  sandbox = await startTestSandbox({ executionDurationMs: 100 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom run with RAW files', { timeout: 90_000 }, () => {
  it('takes a .dng given directly and saves a JPEG edited from its preview', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot);
    const dng = join(shoot, 'IMG_0001.dng');
    await writeFile(dng, buildDng({ previews: [await previewJpeg(1500, 1000)] }));
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const out = join(dir, 'out');
    const result = await runCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'upscale', '--yes', '--out', out, dng], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = ndjson(result.stdout);
    expect(lines[0]).toMatchObject({ type: 'estimate', itemCount: 1, totalCost: 1 });
    expect(lines[lines.length - 1]).toMatchObject({ type: 'summary', saved: 1, failed: 0, skipped: 0, creditsSpent: 1 });
    expect(await readdir(out)).toEqual(['IMG_0001_upscale.jpg']);
  });

  it('--raw-pairs: a RAW+JPEG pair is counted once, edited from the half asked for; a wrong value is a usage error', async () => {
    const pair = join(dir, 'pair');
    await mkdir(pair);
    await writeFile(join(pair, 'DSC_7.NEF'), buildDng({ previews: [await previewJpeg(1200, 800)] }));
    await writeFile(join(pair, 'DSC_7.JPG'), await previewJpeg(1200, 800, '#c08030'));
    const env = cliEnv(join(dir, 'state-pair'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const flags = ['--service-url', sandbox.url];
    const plain = await runCli([...flags, 'run', '--workflow', 'upscale', '--raw-pairs', 'raw', '--yes', '--out', join(dir, 'out-pair'), pair], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('1 RAW+JPEG pair counted once');
    expect(plain.stdout).not.toMatch(/skip .*DSC_7\.JPG/);
    expect(await readdir(join(dir, 'out-pair'))).toEqual(['DSC_7_upscale.jpg']);

    const json = await runCli([...flags, '--json', 'run', '--workflow', 'upscale', '--raw-pairs', 'jpeg', '--rerun', '--yes', '--out', join(dir, 'out-pair-json'), pair], env);
    const estimate = ndjson(json.stdout)[0]!;
    expect(estimate).toMatchObject({ type: 'estimate', itemCount: 1 });
    expect(estimate.skipped).toEqual([{ path: join(pair, 'DSC_7.NEF'), reason: 'RAW+JPEG pair: edited once, from DSC_7.JPG', rawPair: true }]);

    const wrong = await runCli([...flags, 'run', '--workflow', 'upscale', '--raw-pairs', 'cr3', '--yes', pair], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--raw-pairs');
  });
});
