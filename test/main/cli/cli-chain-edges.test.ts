import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { CHAIN_FINALS, CHAIN_PHOTOS, CHAIN_STEPS, chainCase, filesUnder, sandboxCounters, type Counters } from './chain-fixture';
import { ndjson, runCli } from './run-cli';

// Chains (issue 32 #3) at their edges, each found by a review and failing before its fix: the default output folder
// inside the photos' folder, --rerun, an earlier ordinary batch of the same edit, a step that returns several
// results a photo, a kept intermediate edited by hand, a missing path, and a name an earlier run already used.

const PHOTOS = CHAIN_PHOTOS;
let dir: string;
let sandbox: RunningSandbox;
let cases = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-chain-edges-'));
  sandbox = await startTestSandbox({ executionDurationMs: 200 });
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const setup = (name: string, keepSteps = false) => chainCase(dir, sandbox, name, cases++, keepSteps);
const run = (env: Record<string, string>, ...args: string[]) => runCli(['--service-url', sandbox.url, '--json', 'run', ...args], env);
const counter = () => sandboxCounters(sandbox);
const counters = () => counter().now();
const since = (before: Counters) => counter().since(before);
const estimateOf = (stdout: string) => ndjson(stdout).find((r) => r.type === 'chainEstimate') as { steps: { photos: number; credits: number; upTo: boolean }[]; totalCost: number };
const FINALS = CHAIN_FINALS;

describe('chains at their edges', { timeout: 180_000 }, () => {
  it('the default output folder inside the photos\' folder is never searched: the same command again pays 0', async () => {
    const { env, photos, recipe } = await setup('default-out');
    const first = await run(env, '--recipe', recipe, '--recursive', '--yes', photos);
    expect(first.code, first.stderr).toBe(0);
    const again = counters();
    const second = await run(env, '--recipe', recipe, '--recursive', '--yes', photos);
    expect(second.code, second.stderr).toBe(0);
    expect(estimateOf(second.stdout).totalCost).toBe(0);
    expect(since(again).executions).toBe(0);
    expect(await filesUnder(join(photos, 'Batchroom'))).toEqual(FINALS);
  });

  it('--rerun pays each step once a photo, and each photo ends as one file per run', async () => {
    const { env, out, photos, recipe } = await setup('rerun');
    expect((await run(env, '--recipe', recipe, '--recursive', '--yes', '--out', out, photos)).code).toBe(0);
    const again = counters();
    const second = await run(env, '--recipe', recipe, '--recursive', '--yes', '--rerun', '--out', out, photos);
    expect(second.code, second.stderr).toBe(0);
    expect(estimateOf(second.stdout).totalCost).toBe(PHOTOS * 5);
    expect(since(again)).toEqual({ executions: PHOTOS * 3, uploads: PHOTOS, urls: PHOTOS * 2 });
    expect(await filesUnder(out)).toHaveLength(PHOTOS * 2);
  });

  it('a photo an ordinary batch already did with step 1\'s edit stops there (its files are deliverables), said and not sent on', async () => {
    const { env, out, photos, recipe } = await setup('earlier');
    const single = join(dir, 'single.batchroom-recipe.json');
    await writeFile(single, JSON.stringify({
      kind: 'batchroom-recipe', version: 1, name: 'Single', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
      deliverables: [{ namingTemplate: '{name}_a{ext}', format: 'webp', quality: 40 }, { namingTemplate: '{name}_b{ext}', format: 'png' }],
    }));
    expect((await run(env, '--recipe', single, '--recursive', '--yes', '--out', join(dir, 'out-single'), photos)).code).toBe(0);
    const before = counters();
    const chain = await run(env, '--recipe', recipe, '--recursive', '--yes', '--out', out, photos);
    expect(chain.code).toBe(1);
    expect(chain.stderr).toMatch(/done before outside this chain/);
    expect(since(before)).toEqual({ executions: 0, uploads: 0, urls: 0 });
    expect(await filesUnder(out)).toEqual([]);
    // Asked for: step 1 again, then the rest, each once.
    const rerun = await run(env, '--recipe', recipe, '--recursive', '--yes', '--rerun', '--out', out, photos);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(since(before).executions).toBe(PHOTOS * 3);
    expect(await filesUnder(out)).toEqual(FINALS);
  });

  it('a step that returns more results a photo than the estimate allowed for is refused before it starts: never past the agreed total', async () => {
    const { env, out, photos } = await setup('multi');
    const recipe = join(dir, 'multi.batchroom-recipe.json');
    await writeFile(recipe, JSON.stringify({
      kind: 'batchroom-recipe', version: 2, name: 'Multi', workflowId: 'look-variations', parameters: { switchSelections: { looks: ['warm', 'cool'] } },
      steps: [CHAIN_STEPS[0]],
    }));
    const before = counters();
    const result = await run(env, '--recipe', recipe, '--recursive', '--yes', '--out', out, photos);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/more than the .* left of the .* agreed/);
    expect(since(before).executions).toBe(PHOTOS); // step 1 only
  });

  it('a kept step-1 file edited by hand is uploaded as it is now, never sent as the old result\'s URL', async () => {
    const { env, out, photos, recipe } = await setup('edited', true);
    expect((await run(env, '--recipe', recipe, '--recursive', '--yes', '--out', out, photos)).code).toBe(0);
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 255, g: 0, b: 0 } } }).jpeg().toFile(join(out, 'step-1', 'p1.jpg'));
    const before = counters();
    const second = await run(env, '--recipe', recipe, '--recursive', '--yes', '--out', out, photos);
    expect(second.code, second.stderr).toBe(0);
    // Step 2 for the edited file (a new photo to it: uploaded), and step 3 for its new result (by URL).
    expect(since(before)).toEqual({ executions: 2, uploads: 1, urls: 1 });
  });

  it('a path that does not exist is a usage error (exit 2), as for a one-step run', async () => {
    const { env, recipe } = await setup('missing');
    const result = await run(env, '--recipe', recipe, '--yes', join(dir, 'no-such-folder'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not found/);
  });

  it('a photo named like one an earlier run of the recipe did keeps its own name', async () => {
    const { env, recipe } = await setup('names');
    for (const [folder, r] of [['e1', 10], ['e2', 200]] as const) {
      await mkdir(join(dir, folder), { recursive: true });
      await sharp({ create: { width: 80, height: 60, channels: 3, background: { r, g: 100, b: 30 } } }).jpeg().toFile(join(dir, folder, 'IMG_1.jpg'));
      const result = await run(env, '--recipe', recipe, '--yes', '--out', join(dir, `out-${folder}`), join(dir, folder));
      expect(result.code, result.stderr).toBe(0);
    }
    expect(await filesUnder(join(dir, 'out-e2'))).toEqual(['IMG_1_caption-watermark.jpg']);
  });
});
