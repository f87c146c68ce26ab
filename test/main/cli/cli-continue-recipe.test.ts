import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, ndjson, runCli } from './run-cli';

// Issue 32 #1 (Try first → Continue) in the CLI: the same `run --recipe` without --try compares the tried batch's
// fingerprint with the one it is about to pay for; a recipe edited in between is said part by part and needs --yes.

let dir: string;
let sandbox: RunningSandbox;

const recipeFile = (look: string, size?: string) => JSON.stringify({
  kind: 'batchroom-recipe', version: 1, name: 'Portraits', workflowId: 'color-grade',
  parameters: { texts: { look }, ...(size ? { globalOverrides: { imageSize: size } } : {}) },
  deliverables: [{ format: 'jpeg' }],
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-continue-recipe-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function setUp(name: string) {
  const shoot = join(dir, name, 'shoot');
  await mkdir(shoot, { recursive: true });
  await writePhotos(shoot, 5);
  const env = cliEnv(join(dir, name, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
  const file = join(dir, name, 'portraits.batchroom-recipe.json');
  const cli = (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
  const save = async (look: string, size?: string) => {
    await writeFile(file, recipeFile(look, size));
    const imported = await cli('recipes', 'import', file, '--replace');
    expect(imported.code, imported.stderr).toBe(0);
  };
  return { shoot, cli, save };
}

describe('the CLI\'s Continue after a recipe\'s trial', { timeout: 180_000 }, () => {
  it('the recipe edited since the trial: the changed fields are said; without a terminal or --yes nothing is sent (exit 2); with --yes the changed edit runs', async () => {
    const { shoot, cli, save } = await setUp('edited');
    await save('warm');
    const tried = await cli('--json', 'run', '--recipe', 'Portraits', '--try', '2', '--yes', shoot);
    expect(tried.code, tried.stderr).toBe(0);
    expect(ndjson(tried.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 2, creditsSpent: 2 });

    await save('cool', '2K');
    const refused = await cli('run', '--recipe', 'Portraits', shoot);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('This recipe is not what was tried in batch');
    expect(refused.stderr).toContain('texts.look: "warm" → "cool"');
    expect(refused.stderr).toContain('globalOverrides.imageSize: (not set) → "2K"');
    expect(refused.stderr).toContain('Nothing was sent');
    expect(refused.stdout).not.toContain('Batch ');

    const continued = await cli('--json', 'run', '--recipe', 'Portraits', '--yes', shoot);
    expect(continued.code, continued.stderr).toBe(0);
    const lines = ndjson(continued.stdout);
    const change = lines.find((l) => l.type === 'trialChanged') as { changes: string[]; tried: string; fingerprint: string };
    expect(change.changes).toEqual(['texts.look: "warm" → "cool"', 'globalOverrides.imageSize: (not set) → "2K"']);
    expect(change.tried).not.toBe(change.fingerprint);
    // The refused run sent nothing: all 5 photos (the 2 tried too, another edit now) go in this one.
    expect(lines.find((l) => l.type === 'estimate')).toMatchObject({ itemCount: 5 });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 5, creditsSpent: 5 });
  });

  it('the recipe as tried: the rest runs without a word about it', async () => {
    const { shoot, cli, save } = await setUp('same');
    await save('warm');
    expect((await cli('--json', 'run', '--recipe', 'Portraits', '--try', '2', '--yes', shoot)).code).toBe(0);
    const rest = await cli('--json', 'run', '--recipe', 'Portraits', '--yes', shoot);
    expect(rest.code, rest.stderr).toBe(0);
    const lines = ndjson(rest.stdout);
    expect(lines.some((l) => l.type === 'trialChanged')).toBe(false);
    expect(lines.find((l) => l.type === 'estimate')).toMatchObject({ itemCount: 3 });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 3, creditsSpent: 3 });
  });

  it('a flag beside the recipe that changes what is paid counts as a change too', async () => {
    const { shoot, cli, save } = await setUp('flag');
    await save('warm');
    expect((await cli('--json', 'run', '--recipe', 'Portraits', '--try', '1', '--yes', shoot)).code).toBe(0);
    const refused = await cli('run', '--recipe', 'Portraits', '--text', 'look=sepia', shoot);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('texts.look: "warm" → "sepia"');
  });
});
