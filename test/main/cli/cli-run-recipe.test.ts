import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sha256OfFile } from '../../../main/core/recipes/recipe-files';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, ndjson, runCli, startCli, type CliProcess } from './run-cli';

// Issue 32 #1: `batchroom run --recipe NAME|FILE` runs what the recipe says, checked before anything is priced.

let dir: string;
let sandbox: RunningSandbox;
let exiftool: ExifTool;
const started: CliProcess[] = [];

const recipeFile = (fields: Record<string, unknown>) => JSON.stringify({ kind: 'batchroom-recipe', version: 1, ...fields });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-recipe-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
  exiftool = new ExifTool({ maxProcs: 1 });
});

afterAll(async () => {
  // A watch a failed assertion left running is stopped by its own pid, then waited for.
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await Promise.all(started.map((cli) => cli.done));
  await exiftool?.end();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function setUp(name: string, recipe: Record<string, unknown>) {
  const shoot = join(dir, name, 'shoot');
  await mkdir(shoot, { recursive: true });
  await writePhotos(shoot, 2);
  const env = cliEnv(join(dir, name, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
  const file = join(dir, name, `${name}.batchroom-recipe.json`);
  await writeFile(file, recipeFile(recipe));
  const cli = (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
  return { shoot, file, cli };
}

const webRecipe = {
  name: 'Client A web', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
  deliverables: [{ format: 'png', namingTemplate: '{name}_clientA{ext}', folder: 'web', sidecar: 'json' }],
};

describe('batchroom run --recipe', { timeout: 120_000 }, () => {
  it('an imported recipe run by name: its format, naming and sub-folder, its fingerprint in each result\'s XMP and sidecar', async () => {
    const { shoot, file, cli } = await setUp('by-name', webRecipe);
    expect((await cli('recipes', 'import', file)).code).toBe(0);
    const run = await cli('--json', 'run', '--recipe', 'client a WEB', '--yes', shoot);
    expect(run.code, run.stderr).toBe(0);
    const lines = ndjson(run.stdout);
    const said = lines.find((l) => l.type === 'recipe') as { name: string; fingerprint: string; overrides: string[] };
    expect(said).toMatchObject({ name: 'Client A web', overrides: [] });
    expect(said.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 2, failed: 0 });
    const out = join(shoot, 'Batchroom', 'web');
    expect((await readdir(out)).sort()).toEqual(['photo-000_clientA.png', 'photo-000_clientA.png.json', 'photo-001_clientA.png', 'photo-001_clientA.png.json']);
    const tags = await exiftool.read(join(out, 'photo-000_clientA.png')) as unknown as Record<string, unknown>;
    expect(tags.FileType).toBe('PNG');
    expect(tags.RecipeName).toBe('Client A web');
    expect(tags.RecipeFingerprint).toBe(said.fingerprint);
    const sidecar = JSON.parse(await readFile(join(out, 'photo-001_clientA.png.json'), 'utf8')) as { recipe: unknown };
    expect(sidecar.recipe).toEqual({ name: 'Client A web', fingerprint: said.fingerprint });
  });

  it('a flag beside the recipe replaces its value, and the estimate says so', async () => {
    const { shoot, file, cli } = await setUp('override', webRecipe);
    const run = await cli('run', '--recipe', file, '--format', 'jpeg', '--yes', shoot);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe("recipe 'Client A web' with --format jpeg");
    expect((await readdir(join(shoot, 'Batchroom', 'web'))).filter((f) => !f.endsWith('.json')).sort()).toEqual(['photo-000_clientA.jpg', 'photo-001_clientA.jpg']);
  });

  it('a photo costing more than the recipe\'s per-photo budget: exit 4 before the question, nothing sent', async () => {
    const { shoot, file, cli } = await setUp('per-photo', { ...webRecipe, name: 'Cheap', budgetPerPhoto: 0.5 });
    const before = sandbox.stats().executionsCreated;
    const run = await cli('run', '--recipe', file, '--yes', shoot);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("over recipe 'Cheap's budget of");
    expect(sandbox.stats().executionsCreated).toBe(before);
    expect(await readdir(shoot)).toEqual(['photo-000.jpg', 'photo-001.jpg']);
  });

  it('a recipe naming an option the workflow no longer has: exit 2, the field named, nothing sent or made', async () => {
    const { shoot, file, cli } = await setUp('gone', { ...webRecipe, name: 'Gone', parameters: { texts: { look: 'sepia-1970' } } });
    const before = sandbox.stats().executionsCreated;
    const run = await cli('run', '--recipe', file, '--yes', shoot);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("recipe 'Gone' does not fit workflow color-grade");
    expect(run.stderr).toContain('texts.look: "sepia-1970" is not one of the options');
    expect(run.stdout).toBe('');
    expect(sandbox.stats().executionsCreated).toBe(before);
    expect(await readdir(shoot)).toEqual(['photo-000.jpg', 'photo-001.jpg']);
  });

  it('a fixed image whose content changed since the recipe was saved: exit 2 before pricing, nothing made', async () => {
    const root = join(dir, 'fixed');
    await mkdir(root, { recursive: true });
    const backdrop = join(root, 'backdrop.jpg');
    await writePhotos(root, 1, { prefix: 'bd' });
    await copyFile(join(root, 'bd-000.jpg'), backdrop);
    const recipe = { name: 'Product', workflowId: 'product-backdrop', fixedImages: { backdrop: { path: backdrop, sha256: await sha256OfFile(backdrop) } } };
    const { shoot, file, cli } = await setUp('fixed', recipe);
    const before = sandbox.stats().executionsCreated;
    // As saved: every photo is sent with the backdrop.
    const ok = await cli('--json', 'run', '--recipe', file, '--yes', shoot);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ndjson(ok.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 2 });
    expect(sandbox.stats().executionsCreated).toBe(before + 2);
    await rm(join(shoot, 'Batchroom'), { recursive: true });

    await appendFile(backdrop, 'edited');
    const run = await cli('run', '--recipe', file, '--yes', '--rerun', shoot);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/fixedImages\.backdrop: .*backdrop\.jpg is not the image the recipe was saved with/);
    expect(run.stdout).toBe('');
    expect(sandbox.stats().executionsCreated).toBe(before + 2);
    expect(await readdir(shoot)).toEqual(['photo-000.jpg', 'photo-001.jpg']);
  });
});

describe('batchroom watch --recipe', { timeout: 120_000 }, () => {
  it('a watched folder saves with the recipe\'s naming and sub-folder, a flag beside it winning', async () => {
    const { file } = await setUp('watch', webRecipe);
    const inbox = join(dir, 'watch', 'inbox');
    const out = join(dir, 'watch', 'out');
    await mkdir(inbox);
    const env = cliEnv(join(dir, 'watch', 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const watch = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, '--recipe', file, '--out', out, '--format', 'webp'], env);
    started.push(watch);
    const lines: Array<Record<string, unknown>> = [];
    const saw = (test: (l: Record<string, unknown>) => boolean) => new Promise<void>((resolve, reject) => {
      watch.onLine((line) => {
        const record = JSON.parse(line) as Record<string, unknown>;
        lines.push(record);
        if (test(record)) resolve();
      });
      void watch.done.then((r) => reject(new Error(`watch ended early: ${r.stdout}\n${r.stderr}`)));
    });
    const watching = saw((l) => l.type === 'watching');
    const savedOne = saw((l) => l.type === 'activity' && l.kind === 'saved');
    await watching;
    await writePhotos(inbox, 1, { prefix: 'new' });
    await savedOne;
    watch.child.kill('SIGINT');
    const result = await watch.done;
    expect(result.code, result.stderr).toBe(0);
    expect(lines[0]).toMatchObject({ type: 'recipe', name: 'Client A web', overrides: ['--format webp'] });
    expect((await readdir(join(out, 'web'))).sort()).toEqual(['new-000_clientA.webp', 'new-000_clientA.webp.json']);
  });

  it('watch --recipe with fixed images sends each photo with them (one execution a photo, the backdrop in its field)', async () => {
    await mkdir(join(dir, 'watch-fixed'));
    const [backdrop] = await writePhotos(join(dir, 'watch-fixed'), 1, { prefix: 'bd' });
    const recipe = { name: 'Product', workflowId: 'product-backdrop', fixedImages: { backdrop: { path: backdrop, sha256: await sha256OfFile(backdrop!) } } };
    const { file } = await setUp('watch-fixed', recipe);
    const inbox = join(dir, 'watch-fixed', 'inbox');
    const out = join(dir, 'watch-fixed', 'out');
    await mkdir(inbox);
    const env = cliEnv(join(dir, 'watch-fixed', 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const before = sandbox.stats().executionsCreated;
    const watch = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, '--recipe', file, '--out', out, '--yes'], env);
    started.push(watch);
    const saw = (test: (l: Record<string, unknown>) => boolean) => new Promise<void>((resolve, reject) => {
      watch.onLine((line) => { if (test(JSON.parse(line) as Record<string, unknown>)) resolve(); });
      void watch.done.then((r) => reject(new Error(`watch ended early: ${r.stdout}\n${r.stderr}`)));
    });
    const watching = saw((l) => l.type === 'watching');
    const savedOne = saw((l) => l.type === 'activity' && l.kind === 'saved');
    await watching;
    await writePhotos(inbox, 1, { prefix: 'item' });
    await savedOne;
    watch.child.kill('SIGINT');
    const result = await watch.done;
    expect(result.code, result.stderr).toBe(0);
    expect(sandbox.stats().executionsCreated - before).toBe(1);
    expect((await readdir(out)).filter((n) => !n.startsWith('.'))).toEqual(['item-000_product-backdrop.jpg']);
  });
});
