import sharp from 'sharp';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedImageOf } from '../../../main/core/recipes/recipe-images';
import { createRecipeStore, type RecipeStore } from '../../../main/core/recipes/recipe-store';
import { makeRecipe, serializeRecipe, type Recipe } from '../../../shared/recipes/recipe';

let root: string;
let store: RecipeStore;
const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

const recipe = (name: string, over: Partial<Recipe> = {}): Recipe => ({
  ...makeRecipe({ name, workflowId: 'color-grade', parameters: { texts: { prompt: 'warm' } } }),
  ...over,
});

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'batchroom-recipes-'));
  store = createRecipeStore(join(root, 'state'), { cwd: root });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('recipe store', () => {
  it('saves one owner-only JSON file per recipe under <state>/recipes, and lists them by name', () => {
    store.save(recipe('Warm portraits'));
    store.save(recipe('b&w'));
    const files = readdirSync(store.dir);
    expect(files.sort()).toEqual(['b&w.json', 'warm portraits.json']);
    if (process.platform !== 'win32') {
      expect(statSync(join(store.dir, 'warm portraits.json')).mode & 0o777).toBe(0o600);
      expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    }
    expect(readFileSync(join(store.dir, 'warm portraits.json'), 'utf8')).toBe(serializeRecipe(recipe('Warm portraits')));
    expect(store.list()).toEqual({ recipes: [recipe('b&w'), recipe('Warm portraits')], problems: [] });
    expect(store.get('WARM PORTRAITS')).toEqual(recipe('Warm portraits'));
  });

  it('names are unique whatever their case; replace says so explicitly', () => {
    store.save(recipe('Portraits'));
    expect(code(() => store.save(recipe('portraits')))).toBe('conflict');
    expect(store.get('Portraits').name).toBe('Portraits');
    store.save(recipe('portraits', { workflowId: 'upscale' }), { replace: true });
    expect(store.list().recipes.map((r) => [r.name, r.workflowId])).toEqual([['portraits', 'upscale']]);
  });

  it('refuses names with path separators and a recipe the schema refuses, writing nothing', () => {
    expect(code(() => store.save(recipe('x', { name: '../escape' })))).toBe('validation');
    expect(code(() => store.save(recipe('ok', { workflowId: '' })))).toBe('validation');
    expect(existsSync(join(root, 'state', 'escape.json'))).toBe(false);
    expect(store.list().recipes).toEqual([]);
  });

  it('renames (also a change of case only, in place), duplicates and deletes', () => {
    store.save(recipe('Portraits'));
    store.save(recipe('Other'));
    expect(code(() => store.rename('Portraits', 'other'))).toBe('conflict');
    store.rename('Portraits', 'PORTRAITS');
    expect(store.list().recipes.map((r) => r.name)).toEqual(['Other', 'PORTRAITS']);
    store.rename('PORTRAITS', 'Weddings');
    store.duplicate('Weddings', 'Weddings copy');
    expect(store.list().recipes.map((r) => r.name)).toEqual(['Other', 'Weddings', 'Weddings copy']);
    expect(code(() => store.duplicate('Weddings', 'weddings'))).toBe('conflict');
    store.delete('weddings');
    expect(code(() => store.get('Weddings'))).toBe('not_found');
    expect(code(() => store.delete('Weddings'))).toBe('not_found');
    expect(readdirSync(store.dir).sort()).toEqual(['other.json', 'weddings copy.json']);
  });

  it('lists a damaged or hand-renamed file as a problem, keeping the good ones', () => {
    store.save(recipe('Good'));
    writeFileSync(join(store.dir, 'broken.json'), '{ not json');
    writeFileSync(join(store.dir, 'moved.json'), serializeRecipe(recipe('Elsewhere')));
    const { recipes, problems } = store.list();
    expect(recipes.map((r) => r.name)).toEqual(['Good']);
    expect(problems.map((p) => p.file)).toEqual(['broken.json', 'moved.json']);
    expect(problems[0]!.message).toContain('not valid JSON');
    expect(problems[1]!.message).toContain('holds the recipe "Elsewhere"');
  });
});

describe('export and import', () => {
  it('round-trips byte for byte into another state folder, under its own name or --as', async () => {
    store.save(recipe('Warm portraits', { budgetPerPhoto: 3 }));
    const file = store.exportTo('warm portraits');
    expect(file).toBe(join(root, 'Warm portraits.batchroom-recipe.json'));
    const other = createRecipeStore(join(root, 'other-state'), { cwd: root });
    const imported = await other.importFrom(file);
    expect(imported).toEqual({ recipe: recipe('Warm portraits', { budgetPerPhoto: 3 }), replaced: false, images: [] });
    const again = other.exportTo('Warm portraits', { file: join(root, 'again.json') });
    expect(readFileSync(again)).toEqual(readFileSync(file));
    expect(readFileSync(join(other.dir, 'warm portraits.json'))).toEqual(readFileSync(join(store.dir, 'warm portraits.json')));
    await expect(other.importFrom(file)).rejects.toMatchObject({ code: 'conflict' });
    expect((await other.importFrom(file, { name: 'Warm 2' })).recipe.name).toBe('Warm 2');
    expect((await other.importFrom(file, { replace: true })).replaced).toBe(true);
  });

  it.each([
    ['not JSON', '{"kind": ', 'not valid JSON'],
    ['a newer version', JSON.stringify({ ...recipe('X'), version: 3 }), 'made by a newer Batchroom'],
    ['a bad field', JSON.stringify({ ...recipe('X'), deliverables: [{ quality: 0 }] }), 'deliverables.0.quality'],
  ])('refuses %s with a readable error and writes nothing', async (_what, text, message) => {
    const file = join(root, 'bad.batchroom-recipe.json');
    writeFileSync(file, text);
    await expect(store.importFrom(file)).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(message) });
    await expect(store.importFrom(join(root, 'absent.json'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.importFrom(file, { name: 'a/b' })).rejects.toMatchObject({ code: 'validation' });
    expect(existsSync(store.dir) ? readdirSync(store.dir) : []).toEqual([]);
  });

  it('reports fixed images and watermarks that are missing or whose content differs on this computer', async () => {
    const same = join(root, 'ref.jpg');
    const changed = join(root, 'logo.png');
    const reference = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().toBuffer();
    writeFileSync(same, reference);
    writeFileSync(changed, 'the logo as edited here');
    expect(await fixedImageOf(same)).toEqual({ path: same, sha256: createHash('sha256').update(reference).digest('hex') });
    // Only an image is hashed for a recipe (a renderer could otherwise learn the hash of any file it names).
    await expect(fixedImageOf(changed)).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining('is not an image') });
    const withImages = recipe('Styled', {
      fixedImages: {
        reference: await fixedImageOf(same),
        mask: { path: join(root, 'gone.png'), sha256: sha('mask') },
      },
      deliverables: [{ ...recipe('x').deliverables[0]!, watermark: { path: changed, sha256: sha('the logo'), position: 'bottom-right', scale: 0.2, opacity: 0.6 } }],
    });
    const file = join(root, 'styled.json');
    writeFileSync(file, serializeRecipe(withImages));
    const { images } = await store.importFrom(file);
    expect(images.map((i) => [i.where, i.status])).toEqual([
      ['fixedImages.mask', 'missing'], ['fixedImages.reference', 'ok'], ['deliverables.0.watermark', 'changed'],
    ]);
    expect(images[0]!.message).toContain('gone.png is missing on this computer');
    // Nothing of the file found is told (its hash would tell a caller what any file holds).
    expect(JSON.stringify(images)).not.toContain(sha('the logo as edited here').slice(0, 8));
    expect(images[2]!.message).toContain('is not the image the recipe was saved with');
  });
});
