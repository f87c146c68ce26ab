import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { cliEnv } from './run-cli';

// The chain tests' shared fixture (cli-chain, cli-chain-edges): photos in a folder with a sub-folder, a 3-step
// recipe file, and the sandbox's counters of executions, uploads and URL inputs.

export const CHAIN_PHOTOS = 3;
export const CHAIN_STEPS = [
  { workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain'] } } },
  { workflowId: 'caption-watermark', parameters: { texts: { caption: 'Studio' } } },
];
/** What the 3 photos end as: each named after its original, p0 in its own sub-folder. */
export const CHAIN_FINALS = ['day-1/p0_caption-watermark.jpg', 'p1_caption-watermark.jpg', 'p2_caption-watermark.jpg'];

/** Photos of their own (distinct content per case), a chain recipe file, a state folder and an output folder. */
export async function chainCase(dir: string, sandbox: RunningSandbox, name: string, k: number, keepSteps = false) {
  const photos = join(dir, `photos-${name}`);
  await mkdir(join(photos, 'day-1'), { recursive: true });
  for (let i = 0; i < CHAIN_PHOTOS; i++) {
    const at = i === 0 ? join(photos, 'day-1', `p${i}.jpg`) : join(photos, `p${i}.jpg`);
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 60 * i, g: 30 * k, b: 200 - 50 * i } } }).jpeg().toFile(at);
  }
  const recipe = join(dir, `${name}.batchroom-recipe.json`);
  await writeFile(recipe, JSON.stringify({
    kind: 'batchroom-recipe', version: 2, name: `Chain ${name}`, workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, steps: CHAIN_STEPS, keepSteps,
  }));
  const env = cliEnv(join(dir, `state-${name}`), { BATCHROOM_API_KEY: sandbox.apiKey });
  return { env, out: join(dir, `out-${name}`), photos, recipe };
}

export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(folder.length + 1)).sort();
}

export type Counters = { executions: number; uploads: number; urls: number };

/** The sandbox's executions, image uploads and URL inputs now, and since an earlier reading. */
export function sandboxCounters(sandbox: RunningSandbox) {
  const now = (): Counters => {
    const s = sandbox.stats();
    return { executions: s.executionsCreated, uploads: s.imageInputs.uploads, urls: s.imageInputs.urls };
  };
  const since = (before: Counters): Counters => {
    const at = now();
    return { executions: at.executions - before.executions, uploads: at.uploads - before.uploads, urls: at.urls - before.urls };
  };
  return { now, since };
}
