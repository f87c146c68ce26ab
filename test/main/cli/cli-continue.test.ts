import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, ndjson, runCli } from './run-cli';

// Issue 31 #14: `batchroom run --try N`, then the same command without --try, ran the rest but counted the tried
// photos and the output folder inside the shoot as skipped items of the new batch ("SAVED 22 / 26").

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-continue-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('continuing a try in the CLI', { timeout: 120_000 }, () => {
  it('the continue batch holds the rest only: no tried photo, no output folder', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot);
    await writePhotos(shoot, 7);
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const run = (...extra: string[]) => runCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', ...extra, shoot], env);

    const tried = await run('--try', '2');
    expect(tried.code, tried.stderr).toBe(0);
    expect(ndjson(tried.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 2, skipped: 0 });

    const rest = await run();
    expect(rest.code, rest.stderr).toBe(0);
    const lines = ndjson(rest.stdout);
    expect(lines[0]).toMatchObject({ type: 'estimate', itemCount: 5, totalCost: 5, skipped: [] });
    expect(lines.find((l) => l.type === 'batch')).toMatchObject({ total: 5 });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 5, skipped: 0, creditsSpent: 5 });
    expect(await readdir(join(shoot, 'Batchroom'))).toHaveLength(7);
  });

  it('a shell glob that names the output folder does not make its results inputs', async () => {
    const shoot = join(dir, 'glob');
    await mkdir(shoot);
    const photos = await writePhotos(shoot, 3);
    const env = cliEnv(join(dir, 'state-glob'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const run = (paths: string[]) => runCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', ...paths], env);
    expect((await run(photos.slice(0, 1))).code).toBe(0);
    // `batchroom run shoot/*` once shoot/Batchroom exists: the three photos and the folder of results.
    const again = await run([...photos, join(shoot, 'Batchroom')]);
    expect(again.code, again.stderr).toBe(0);
    const lines = ndjson(again.stdout);
    expect(lines[0]).toMatchObject({ type: 'estimate', itemCount: 2, skipped: [] });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 2, creditsSpent: 2 });
    expect((await readdir(join(shoot, 'Batchroom'))).sort()).toEqual(['photo-000_color-grade.jpg', 'photo-001_color-grade.jpg', 'photo-002_color-grade.jpg']);
  });
});
