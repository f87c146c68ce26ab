import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_USABLE_PREVIEW } from '../../../main/core/images/raw-preview';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { buildDng, previewJpeg } from '../images/dng-kit';
import { cliEnv, ndjson, runCli } from './run-cli';

// Issue 31 #9 through the real command: `--budget 1` refused a batch of one good RAW and one whose previews are all
// thumbnails — the estimate priced the RAW the encoder refuses for free.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-raw-budget-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom run --budget with a RAW that will be refused', { timeout: 90_000 }, () => {
  it('prices only the RAW that is sent: --budget 1 runs it, the other is listed as refused', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot);
    await writeFile(join(shoot, 'DSC_0001.NEF'), buildDng({ previews: [await previewJpeg(1600, 1067)] }));
    await writeFile(join(shoot, 'DSC_0002.NEF'), buildDng({ previews: [await previewJpeg(640, 427, '#40a060')] }));
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const out = join(dir, 'out');
    const result = await runCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'upscale', '--budget', '1', '--yes', '--out', out, shoot], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = ndjson(result.stdout);
    expect(lines[0]).toMatchObject({
      type: 'estimate', itemCount: 1, totalCost: 1, fitsBudget: true, namingPreviewMore: 0,
      skipped: [{ path: join(shoot, 'DSC_0002.NEF'), reason: NO_USABLE_PREVIEW }],
    });
    expect((lines[0]!.namingPreview as { source: string }[]).map((n) => n.source)).toEqual([join(shoot, 'DSC_0001.NEF')]);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 1, failed: 0, skipped: 1, creditsSpent: 1 });
    expect(await readdir(out)).toEqual(['DSC_0001_upscale.jpg']);
  });
});
