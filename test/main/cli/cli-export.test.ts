import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, ndjson, runCli } from './run-cli';

// `batchroom export`: the PNG of an edit already paid for, or a recipe's deliverables, without paying again.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-export-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom export, real CLI and sandbox', { timeout: 120_000 }, () => {
  it('exports a paid batch again as PNG and as a recipe\'s deliverables: 0 executions, 0 credits', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot, { recursive: true });
    await writePhotos(shoot, 3);
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const cli = (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
    const run = await cli('--json', 'run', '--workflow', 'upscale', '--out', join(dir, 'out'), '--yes', shoot);
    expect(run.code, run.stderr).toBe(0);
    const batchId = (ndjson(run.stdout).find((r) => r.type === 'batch') as { id: string }).id;
    const executions = sandbox.stats().executionsCreated;
    const charged = sandbox.stats().creditsCharged;

    const png = await cli('--json', 'export', batchId.slice(0, 8), '--out', join(dir, 'png'), '--format', 'png', '--long-edge', '50');
    expect(png.code, png.stderr).toBe(0);
    expect(ndjson(png.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 3, creditsSpent: 0 });
    const files = (await readdir(join(dir, 'png'))).filter((n) => n.endsWith('.png'));
    expect(files).toHaveLength(3);
    const meta = await sharp(join(dir, 'png', files[0]!)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(50);

    const recipe = join(dir, 'web.batchroom-recipe.json');
    await writeFile(recipe, JSON.stringify({
      kind: 'batchroom-recipe', version: 1, name: 'Web', workflowId: 'upscale',
      deliverables: [{ format: 'jpeg', folder: 'full', namingTemplate: '{name}{ext}' }, { format: 'webp', folder: '{client}', namingTemplate: '{name}{ext}' }],
    }));
    const viaRecipe = await cli('export', '--since', '2000-01-01', '--recipe', recipe, '--client', 'Ana', '--out', join(dir, 'delivery'));
    expect(viaRecipe.code, viaRecipe.stderr).toBe(0);
    expect(viaRecipe.stdout).toMatch(/Exporting 3 paid result\(s\) of .* 0 credits/);
    expect((await readdir(join(dir, 'delivery', 'full'))).filter((n) => n.endsWith('.jpg'))).toHaveLength(3);
    expect((await readdir(join(dir, 'delivery', 'Ana'))).filter((n) => n.endsWith('.webp'))).toHaveLength(3);

    expect(sandbox.stats().executionsCreated).toBe(executions);
    expect(sandbox.stats().creditsCharged).toBe(charged);
  });

  it('refuses a missing batch, and both or neither of batch and --since, before anything is made', async () => {
    const env = cliEnv(join(dir, 'state-2'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const cli = (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
    const neither = await cli('export', '--out', join(dir, 'x'));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/name one batch, or --since DATE/);
    const unknown = await cli('export', 'deadbeef', '--out', join(dir, 'x'));
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no batch deadbeef/);
  });
});
