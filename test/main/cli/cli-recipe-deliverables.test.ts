import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, ndjson, runCli, startCli, type CliProcess } from './run-cli';

// Issue 32 #1, #2, #4 through the real command and the real sandbox: every deliverable of a recipe from one paid
// execution, a hot folder that runs a recipe (and stops when it is gone), and a workflow changed since the recipe
// was saved — a new price said and refused without --yes, an option gone refused. Nothing is sent when refused.

let dir: string;
let sandbox: RunningSandbox;
const started: CliProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-deliverables-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  // A watch a failed assertion left running is stopped by its own pid, then waited for.
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await Promise.all(started.map((cli) => cli.done));
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function setUp(name: string, recipe: Record<string, unknown>, photos = 2) {
  const shoot = join(dir, name, 'shoot');
  await mkdir(shoot, { recursive: true });
  await writePhotos(shoot, photos);
  const state = join(dir, name, 'state');
  const env = cliEnv(state, { BATCHROOM_API_KEY: sandbox.apiKey });
  const file = join(dir, name, `${name}.batchroom-recipe.json`);
  await writeFile(file, JSON.stringify({ kind: 'batchroom-recipe', version: 1, ...recipe }));
  const cli = (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
  return { shoot, file, state, env, cli };
}

const threeFiles = {
  name: 'Client A', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
  deliverables: [
    { format: 'jpeg', folder: 'full', namingTemplate: '{name}{ext}' },
    { format: 'png', folder: 'web', namingTemplate: '{name}_web{ext}', sidecar: 'json' },
    { format: 'webp', folder: 'thumbs', namingTemplate: '{name}_thumb{ext}', size: { fit: 'long-edge', longEdge: 32 } },
  ],
};

describe('recipe deliverables and changes, real CLI and sandbox', { timeout: 120_000 }, () => {
  it('3 deliverables: 1 execution per photo, 3 files per photo, each as its deliverable says', async () => {
    const { shoot, file, cli } = await setUp('three', threeFiles);
    const before = sandbox.stats().executionsCreated;
    const run = await cli('--json', 'run', '--recipe', file, '--yes', shoot);
    expect(run.code, run.stderr).toBe(0);
    expect(ndjson(run.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 2, failed: 0 });
    expect(sandbox.stats().executionsCreated).toBe(before + 2);
    const out = join(shoot, 'Batchroom');
    expect((await readdir(join(out, 'full'))).sort()).toEqual(['photo-000.jpg', 'photo-001.jpg']);
    expect((await readdir(join(out, 'web'))).sort()).toEqual(['photo-000_web.png', 'photo-000_web.png.json', 'photo-001_web.png', 'photo-001_web.png.json']);
    expect((await readdir(join(out, 'thumbs'))).sort()).toEqual(['photo-000_thumb.webp', 'photo-001_thumb.webp']);
    const thumb = await sharp(join(out, 'thumbs', 'photo-000_thumb.webp')).metadata();
    expect([thumb.format, Math.max(thumb.width ?? 0, thumb.height ?? 0)]).toEqual(['webp', 32]);
    expect((await sharp(join(out, 'web', 'photo-001_web.png')).metadata()).format).toBe('png');
    const sidecar = JSON.parse(await readFile(join(out, 'web', 'photo-000_web.png.json'), 'utf8')) as { recipe?: { name: string } };
    expect(sidecar.recipe?.name).toBe('Client A');
    // The ledger knows the recipe of each photo: `recipes show` counts them (the fingerprint is the file's as saved).
    expect((await cli('recipes', 'import', file)).code).toBe(0);
    const show = await cli('--json', 'recipes', 'show', 'client a');
    expect(show.code, show.stderr).toBe(0);
    expect(ndjson(show.stdout)[0]).toMatchObject({ done: 2, changed: null });
    expect((await cli('recipes', 'show', 'Client A')).stdout).toContain('Photos done with it: 2');
  });

  it('a watermark is checked by its hash before pricing: changed, exit 2 and nothing sent; as saved, laid over', async () => {
    const markPath = join(dir, 'mark.png');
    const mark = await sharp({ create: { width: 24, height: 24, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } }).png().toBuffer();
    await writeFile(markPath, mark);
    const sha256 = createHash('sha256').update(mark).digest('hex');
    const marked = (hash: string) => ({
      name: 'Marked', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
      deliverables: [{ format: 'png', folder: 'marked', watermark: { path: markPath, sha256: hash, position: 'centre', scale: 0.5, opacity: 1 } }, { format: 'png', folder: 'plain' }],
    });
    const { shoot, file, cli } = await setUp('mark', marked('0'.repeat(64)), 1);
    const before = sandbox.stats().executionsCreated;
    const refused = await cli('run', '--recipe', file, '--yes', shoot);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/deliverables\.0\.watermark: .*mark\.png is not the image the recipe was saved with/);
    expect(refused.stdout).toBe('');
    expect(sandbox.stats().executionsCreated).toBe(before);

    await writeFile(file, JSON.stringify({ kind: 'batchroom-recipe', version: 1, ...marked(sha256) }));
    const run = await cli('run', '--recipe', file, '--yes', shoot);
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.stats().executionsCreated).toBe(before + 1);
    // One paid result, two files: the watermarked one differs from the plain one only by the mark at the centre.
    const [withMark, without] = await Promise.all(['marked', 'plain'].map((f) =>
      sharp(join(shoot, 'Batchroom', f, 'photo-000_color-grade.png')).raw().toBuffer({ resolveWithObject: true })));
    expect(withMark!.info.width).toBe(without!.info.width);
    expect(withMark!.data.equals(without!.data)).toBe(false);
  });

  it('a hot folder runs the recipe: every deliverable of each photo; the recipe deleted, it says so and sends nothing', async () => {
    const { file, state, env, cli } = await setUp('hot', { ...threeFiles, deliverables: threeFiles.deliverables.slice(1) }, 0);
    expect((await cli('recipes', 'import', file)).code).toBe(0);
    const inbox = join(dir, 'hot', 'inbox');
    const out = join(dir, 'hot', 'out');
    await mkdir(inbox);
    const watch = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, '--recipe', 'client a', '--out', out], env);
    started.push(watch);
    const lines: Array<Record<string, unknown>> = [];
    const waiters: Array<{ test: (l: Record<string, unknown>) => boolean; done: () => void }> = [];
    watch.onLine((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      lines.push(record);
      for (const w of waiters.splice(0)) if (w.test(record)) w.done(); else waiters.push(w);
    });
    const saw = (test: (l: Record<string, unknown>) => boolean) => new Promise<void>((resolve, reject) => {
      if (lines.some(test)) return resolve();
      waiters.push({ test, done: resolve });
      void watch.done.then((r) => reject(new Error(`watch ended early: ${r.stdout}\n${r.stderr}`)));
    });
    await saw((l) => l.type === 'watching');
    const before = sandbox.stats().executionsCreated;
    await writePhotos(inbox, 1, { prefix: 'new' });
    await saw((l) => l.type === 'activity' && l.kind === 'saved');
    expect(sandbox.stats().executionsCreated).toBe(before + 1);
    expect(await readdir(join(out, 'web'))).toEqual(expect.arrayContaining(['new-000_web.png', 'new-000_web.png.json']));
    expect(await readdir(join(out, 'thumbs'))).toEqual(['new-000_thumb.webp']);

    await unlink(join(state, 'recipes', 'client a.json'));
    await writePhotos(inbox, 1, { prefix: 'late', offset: 5 });
    await saw((l) => l.type === 'folder' && typeof l.reason === 'string' && l.reason.includes("recipe 'Client A' is gone"));
    expect(sandbox.stats().executionsCreated).toBe(before + 1);
    watch.child.kill('SIGINT');
    const result = await watch.done;
    expect(result.code, result.stderr).toBe(0);
    expect(lines.some((l) => l.type === 'activity' && l.kind === 'failed' && String(l.message).includes('not sent'))).toBe(true);
    expect(await readdir(join(out, 'thumbs'))).toEqual(['new-000_thumb.webp']);
  });

  it('a price changed since the recipe was saved: said with the estimate, exit 4 without --yes, nothing sent; --yes runs', async () => {
    const grainy = { name: 'Grainy', workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain'] } }, seenCreditCost: 1 };
    const { shoot, file, cli } = await setUp('price', grainy);
    const before = sandbox.stats().executionsCreated;
    const asked = await cli('run', '--recipe', file, shoot);
    expect(asked.code).toBe(4);
    expect(asked.stdout).toContain("recipe 'Grainy': price changed 1 → 2 credits per photo");
    expect(asked.stderr).toContain('run again with --yes');
    const watched = await cli('watch', shoot, '--recipe', file, '--out', join(dir, 'price', 'out'));
    expect(watched.code).toBe(4);
    expect(watched.stderr).toContain("recipe 'Grainy': price changed 1 → 2 credits per photo");
    expect(sandbox.stats().executionsCreated).toBe(before);
    expect(await readdir(shoot)).toEqual(['photo-000.jpg', 'photo-001.jpg']);
    const yes = await cli('--json', 'run', '--recipe', file, '--yes', shoot);
    expect(yes.code, yes.stderr).toBe(0);
    expect(ndjson(yes.stdout)).toContainEqual({ type: 'recipeChanged', message: "recipe 'Grainy': price changed 1 → 2 credits per photo", priceChanged: true });
    expect(sandbox.stats().executionsCreated).toBe(before + 2);
  });

  it('an option gone since the recipe was saved: named, exit 2, nothing sent or made', async () => {
    const leak = {
      name: 'Leaky', workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain', 'lightLeak'] } }, seenCreditCost: 2,
      seenSchema: { texts: [], switches: { effects: ['grain', 'lightLeak', 'vignette'] }, images: ['photo'], required: ['photo'] },
    };
    const { shoot, file, cli } = await setUp('option', leak);
    const before = sandbox.stats().executionsCreated;
    const run = await cli('run', '--recipe', file, '--yes', shoot);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("recipe 'Leaky': option 'lightLeak' of 'effects' is gone");
    expect(run.stdout).toBe('');
    expect(sandbox.stats().executionsCreated).toBe(before);
    expect(await readdir(shoot)).toEqual(['photo-000.jpg', 'photo-001.jpg']);
  });
});
