import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parametersHash } from '../../main/core/journal/ledger-key';
import { recipeFingerprint, recipePaidParts, recipeParametersHash } from '../../shared/recipes/fingerprint';
import {
  RECIPE_KIND, defaultDeliverable, makeRecipe, parseRecipe, recipeNameKey, recipeNameProblem, serializeRecipe, type Recipe,
} from '../../shared/recipes/recipe';
import { sha256Hex } from '../../shared/recipes/sha256';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const ACCOUNT = 'f'.repeat(32);

const base = (): Recipe => makeRecipe({
  name: 'Warm portraits',
  workflowId: 'color-grade',
  parameters: { texts: { prompt: 'warm, soft light', style: 'film' }, switchSelections: { look: ['warm'] }, globalOverrides: { aspectRatio: '3:4' } },
  fixedImages: { reference: { path: '/refs/look.jpg', sha256: HASH_A } },
  budgetPerPhoto: 2,
});

const failure = (input: unknown): string => {
  const outcome = parseRecipe(input);
  if (outcome.ok) throw new Error('expected the recipe to be refused');
  return outcome.message;
};

describe('sha256Hex (pure TypeScript)', () => {
  it.each(['', 'abc', 'é ✓ 😀 日本', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'y'.repeat(1000), '\ud800 lone'])('matches node:crypto for %j', (text) => {
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('recipe schema', () => {
  it('fills the defaults: one default deliverable (what a batch with default output options saves), no budget', () => {
    const recipe = makeRecipe({ name: 'Plain', workflowId: 'upscale' });
    expect(recipe).toMatchObject({ kind: RECIPE_KIND, version: 1, parameters: {}, fixedImages: {}, budgetPerPhoto: null });
    expect(recipe.deliverables).toEqual([defaultDeliverable()]);
    expect(recipe.deliverables[0]).toMatchObject({
      folder: '', namingTemplate: '{name}_{workflow}{ext}', format: 'source', quality: 92, size: { fit: 'original' },
      colour: 'srgb', metadata: 'keep', sidecar: 'none',
    });
  });

  it('a newer version is refused as made by a newer Batchroom, not as unknown fields', () => {
    const message = failure({ ...base(), version: 3, somethingNew: true });
    expect(message).toContain('made by a newer Batchroom');
    expect(message).toContain('version 3');
    expect(message).not.toContain('somethingNew');
  });

  it.each([
    [{ version: 0 }, 'version: must be 1 or 2'],
    [{ version: undefined }, 'version: is missing'],
    [{ kind: undefined }, 'not a Batchroom recipe file'],
    [{ workflowId: '' }, 'workflowId: must not be empty'],
    [{ name: 'a/b' }, 'name: must not contain / or \\'],
    [{ budgetPerPhoto: -1 }, 'budgetPerPhoto: must not be negative'],
    [{ parameters: { text: { a: 'b' } } }, 'parameters'],
    [{ parameters: { globalOverrides: { aspectRatio: '5:1' } } }, 'parameters.globalOverrides.aspectRatio: must be one of'],
    [{ fixedImages: { reference: { path: '/x.jpg', sha256: 'nothex' } } }, 'fixedImages.reference.sha256: must be a SHA-256'],
    [{ deliverables: [] }, 'deliverables: must list at least one deliverable'],
    [{ deliverables: Array.from({ length: 9 }, () => ({})) }, 'deliverables: must list at most 8 deliverables'],
    [{ deliverables: [{ folder: '{jbo}/web' }] }, 'deliverables.0.folder: may use only the tokens {job}, {client}, {capture_date}'],
    [{ deliverables: [{ format: 'bmp' }] }, 'deliverables.0.format'],
    [{ deliverables: [{ quality: 101 }] }, 'deliverables.0.quality'],
    [{ deliverables: [{ namingTemplate: '{nmae}{ext}' }] }, 'deliverables.0.namingTemplate: Unknown token: {nmae}'],
    [{ deliverables: [{ folder: '../out' }] }, 'deliverables.0.folder: must not climb out'],
    [{ deliverables: [{ folder: '/abs' }] }, 'deliverables.0.folder: must be a sub-folder'],
    [{ deliverables: [{ size: { fit: 'long-edge' } }] }, 'deliverables.0.size.longEdge'],
    [{ deliverables: [{ watermark: { path: '/w.png', sha256: HASH_B, opacity: 2 } }] }, 'deliverables.0.watermark.opacity: must be between 0 and 1'],
  ])('names the field: %j', (change, expected) => {
    expect(failure({ ...base(), ...change })).toContain(expected);
  });

  it('refuses what is not an object', () => {
    expect(failure([1])).toBe('recipe: must be a JSON object');
    expect(failure(null)).toBe('recipe: must be a JSON object');
  });

  it('takes the sizes and a watermark item 2 will make (the shape is fixed now)', () => {
    const deliverable = { size: { fit: 'cover', width: 1080, height: 1350 }, watermark: { path: '/logo.png', sha256: HASH_B } };
    const outcome = parseRecipe({ ...base(), deliverables: [deliverable] });
    expect(outcome.ok && outcome.value.deliverables[0]!.watermark).toEqual({ path: '/logo.png', sha256: HASH_B, position: 'bottom-right', scale: 0.2, opacity: 0.6 });
  });
});

describe('recipe names', () => {
  it.each([
    ['Warm portraits', null], ['Äpfel & Birnen (2×)', null], ['', 'must not be empty'], [' lead', 'must not start or end with a space'],
    ['a\\b', 'not a path'], ['..', 'dot'], ['.hidden', 'dot'], ['what?', 'must not contain'], ['CON', 'reserved'], ['nul.txt', 'reserved'],
    ['x'.repeat(81), 'at most 80'], ['日'.repeat(70), 'too long for a file name'], ['tab\there', 'control characters'],
  ])('%j → %j', (name, problem) => {
    const found = recipeNameProblem(name);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it('are one name whatever the case', () => {
    expect(recipeNameKey('Warm Portraits')).toBe(recipeNameKey('warm portraits'));
  });
});

describe('serializeRecipe', () => {
  it('gives the same bytes whatever order the recipe was written in, and reads back to the same recipe', () => {
    const recipe = base();
    const reordered = JSON.parse(JSON.stringify({
      deliverables: recipe.deliverables.map((d) => Object.fromEntries(Object.entries(d).reverse())),
      budgetPerPhoto: 2, fixedImages: recipe.fixedImages, name: recipe.name, version: 1, kind: RECIPE_KIND, workflowId: recipe.workflowId,
      parameters: { globalOverrides: { aspectRatio: '3:4' }, switchSelections: { look: ['warm'] }, texts: { style: 'film', prompt: 'warm, soft light' } },
    }));
    const parsed = parseRecipe(reordered);
    expect(parsed.ok).toBe(true);
    const text = serializeRecipe(recipe);
    expect(serializeRecipe((parsed as { value: Recipe }).value)).toBe(text);
    expect(text.startsWith('{\n  "kind": "batchroom-recipe",\n  "version": 1,\n  "name": "Warm portraits",')).toBe(true);
    expect(parseRecipe(JSON.parse(text))).toEqual({ ok: true, value: recipe });
  });
});

describe('recipeFingerprint: what is paid', () => {
  it('hashes the parameters exactly as the engine does for claims and the done ledger', () => {
    const recipe = base();
    expect(recipeParametersHash(recipe)).toBe(parametersHash(recipe.parameters));
    expect(recipeParametersHash({ parameters: {} })).toBe(parametersHash({}));
    expect(recipePaidParts(recipe, ACCOUNT)).toEqual({
      workflowId: 'color-grade', parametersHash: parametersHash(recipe.parameters), fixedImages: { reference: HASH_A }, account: ACCOUNT,
    });
  });

  it('is stable: the same recipe written in another key order, with another name, budget or deliverables, is the same edit', () => {
    const recipe = base();
    const same = makeRecipe({
      name: 'Renamed', workflowId: 'color-grade', budgetPerPhoto: null,
      parameters: { globalOverrides: { aspectRatio: '3:4' }, switchSelections: { look: ['warm'] }, texts: { style: 'film', prompt: 'warm, soft light' } },
      fixedImages: { reference: { path: '/elsewhere/look.jpg', sha256: HASH_A } },
      deliverables: [{ format: 'png', folder: 'web' }],
    });
    expect(recipeFingerprint(same, ACCOUNT)).toBe(recipeFingerprint(recipe, ACCOUNT));
    expect(recipeFingerprint(recipe, ACCOUNT)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the workflow, a text, a switch, an override, a fixed image content or the account', () => {
    const recipe = base();
    const print = recipeFingerprint(recipe, ACCOUNT);
    const changed: Recipe[] = [
      { ...recipe, workflowId: 'upscale' },
      { ...recipe, parameters: { ...recipe.parameters, texts: { prompt: 'cool', style: 'film' } } },
      { ...recipe, parameters: { ...recipe.parameters, switchSelections: { look: ['cool'] } } },
      { ...recipe, parameters: { ...recipe.parameters, globalOverrides: { aspectRatio: '16:9' } } },
      { ...recipe, fixedImages: { reference: { path: '/refs/look.jpg', sha256: HASH_B } } },
    ];
    const prints = changed.map((r) => recipeFingerprint(r, ACCOUNT));
    prints.push(recipeFingerprint(recipe, 'e'.repeat(32)));
    for (const other of prints) expect(other).not.toBe(print);
    expect(new Set(prints).size).toBe(prints.length);
  });
});
