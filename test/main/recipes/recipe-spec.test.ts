import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../main/cli/errors';
import {
  checkFixedImages, checkRecipeAgainstWorkflow, describeRecipeRun, finishRecipeSpec, isRecipeFile, loadRecipe, recipeRunFlags,
  type RecipeSpecContext,
} from '../../../main/cli/recipe-spec';
import { buildRunSpec, type RunFlags } from '../../../main/cli/run-spec';
import { createRecipeStore } from '../../../main/core/recipes/recipe-store';
import { parametersHash } from '../../../main/core/journal/ledger-key';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { recipeFingerprint, recipeParametersHash } from '../../../shared/recipes/fingerprint';
import { makeRecipe, serializeRecipe, type Recipe } from '../../../shared/recipes/recipe';
import { sha256Hex } from '../../../shared/recipes/sha256';
import { WorkflowDetailSchema, type WorkflowDetail } from '../../../shared/service/model';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';

const workflow: WorkflowDetail = WorkflowDetailSchema.parse({
  id: 'grade', name: 'Grade', creditCost: 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo' }, { id: 'backdrop', label: 'Backdrop', required: false }],
    textFields: [
      { id: 'look', label: 'Look', required: true, presetOptions: [{ id: 'warm', label: 'Warm' }, { id: 'cool', label: 'Cool' }] },
      { id: 'caption', label: 'Caption', maxLength: 10 },
    ],
    switchFields: [{ id: 'effects', label: 'Effects', options: [{ id: 'grain', label: 'Grain' }, { id: 'vignette', label: 'Vignette' }] }],
  },
});

const recipe = (extra: Partial<Parameters<typeof makeRecipe>[0]> = {}): Recipe => makeRecipe({
  name: 'Client A web', workflowId: 'grade',
  parameters: { texts: { look: 'warm' }, switchSelections: { effects: ['grain'] }, globalOverrides: { imageSize: '2K' } },
  deliverables: [{ format: 'png', quality: 80, colour: 'source', metadata: 'strip-gps', sidecar: 'xmp', namingTemplate: '{name}_web{ext}', folder: 'web' }],
  ...extra,
});
const none = (extra: Partial<RunFlags> = {}): RunFlags => ({ workflow: '', text: [], switch: [], mapping: [], out: '/out', ...extra });
const context = (r: Recipe, given: RunFlags, extra: Partial<RecipeSpecContext> = {}): RecipeSpecContext => ({
  recipe: r, workflow, given, account: 'acct-1',
  photoFiles: async () => ['/photos/a.jpg', '/photos/b.jpg'], ...extra,
});
const specOf = async (r: Recipe, given: RunFlags, extra: Partial<RecipeSpecContext> = {}) =>
  BatchSpecSchema.parse(await finishRecipeSpec(buildRunSpec(recipeRunFlags(r, given).flags, ['/photos'], workflow, DEFAULT_SETTINGS, '/'), context(r, given, extra)));

describe('recipe → batch spec', () => {
  it('takes the recipe\'s workflow, parameters and deliverable output settings, and its name and fingerprint', async () => {
    const r = recipe();
    const spec = await specOf(r, none());
    expect(spec.workflowId).toBe('grade');
    expect(spec.parameters).toEqual(r.parameters);
    // The engine's ledger key and the recipe's fingerprint describe the same edit.
    expect(parametersHash(spec.parameters)).toBe(recipeParametersHash(r));
    // The output folder stays the root; deliverable 1's folder is the engine's to put under it (and under "next to the photos").
    expect(spec.output).toMatchObject({ outputFolder: '/out', folder: 'web', size: { fit: 'original' }, namingTemplate: '{name}_web{ext}', format: 'png', quality: 80, colour: 'source', metadata: 'strip-gps', sidecar: 'xmp' });
    expect(spec.recipe).toEqual({ name: 'Client A web', fingerprint: recipeFingerprint(r, 'acct-1') });
    expect(spec.inputs.paths).toEqual(['/photos']);
  });

  it('leaves the output folder to the engine when none is named: the sub-folder goes under "next to the photos" there', async () => {
    const spec = await specOf(recipe(), none({ out: undefined }));
    expect(spec.output).toMatchObject({ outputFolder: '', folder: 'web' });
  });

  it('makes every deliverable: 1 is the output (size, watermark), 2…N the batch\'s further deliverables', async () => {
    const watermark = { path: '/marks/logo.png', sha256: 'c'.repeat(64), position: 'top-left' as const, scale: 0.3, opacity: 0.5 };
    const r = recipe({
      deliverables: [
        { format: 'jpeg', quality: 90, folder: 'full', size: { fit: 'long-edge', longEdge: 4000 }, watermark },
        { format: 'png', folder: '{client}/web', namingTemplate: '{name}_web{ext}', size: { fit: 'cover', width: 1080, height: 1080 }, sidecar: 'json' },
        { format: 'webp', quality: 60, folder: 'thumbs', size: { fit: 'long-edge', longEdge: 400 }, metadata: 'strip' },
      ],
    });
    const spec = await specOf(r, none({ format: 'tiff' }));
    // A flag replaces deliverable 1's value only.
    expect(spec.output).toMatchObject({ outputFolder: '/out', folder: 'full', format: 'tiff', quality: 90, size: { fit: 'long-edge', longEdge: 4000 }, watermark });
    expect(spec.deliverables).toEqual([
      expect.objectContaining({ format: 'png', folder: '{client}/web', namingTemplate: '{name}_web{ext}', size: { fit: 'cover', width: 1080, height: 1080 }, sidecar: 'json' }),
      expect.objectContaining({ format: 'webp', quality: 60, folder: 'thumbs', size: { fit: 'long-edge', longEdge: 400 }, metadata: 'strip' }),
    ]);
    expect(spec.deliverables[1]!.watermark).toBeUndefined();
    // More deliverables change nothing paid: the same fingerprint as the recipe with one.
    expect(spec.recipe?.fingerprint).toBe(recipeFingerprint(recipe(), 'acct-1'));
  });

  it('lets flags given beside it win, and lists them in the order given', async () => {
    const given = none({ format: 'jpeg', text: ['look=cool'], naming: '{name}{ext}' });
    const { overrides } = recipeRunFlags(recipe(), given);
    expect(overrides).toEqual(['--text look', '--naming {name}{ext}', '--format jpeg']);
    expect(describeRecipeRun(recipe(), ['--format png'])).toBe("recipe 'Client A web' with --format png");
    expect(describeRecipeRun(recipe(), [])).toBe("recipe 'Client A web'");
    const spec = await specOf(recipe(), given);
    expect(spec.output).toMatchObject({ format: 'jpeg', namingTemplate: '{name}{ext}', quality: 80 });
    expect(spec.parameters.texts).toEqual({ look: 'cool' });
    expect(spec.parameters.switchSelections).toEqual({ effects: ['grain'] });
    // What is paid changed, so the fingerprint is that of the edit sent, not the recipe's.
    expect(spec.recipe?.fingerprint).not.toBe(recipeFingerprint(recipe(), 'acct-1'));
  });

  it('refuses --workflow naming another workflow than the recipe\'s', () => {
    expect(() => recipeRunFlags(recipe(), none({ workflow: 'other' }))).toThrow(/not the workflow of recipe 'Client A web' \(grade\)/);
    expect(() => recipeRunFlags(recipe(), none({ workflow: 'grade' }))).not.toThrow();
  });

  it('sends every photo with the fixed images: one mapping each, the photo first', async () => {
    const r = recipe({ fixedImages: { backdrop: { path: '/refs/b.jpg', sha256: 'a'.repeat(64) } } });
    const spec = await specOf(r, none());
    expect(spec.inputs.paths).toEqual([]);
    expect(spec.inputs.mappings).toEqual([{ photo: '/photos/a.jpg', backdrop: '/refs/b.jpg' }, { photo: '/photos/b.jpg', backdrop: '/refs/b.jpg' }]);
    expect(Object.keys(spec.inputs.mappings[0]!)[0]).toBe('photo');
    expect(spec.recipe?.fingerprint).toBe(recipeFingerprint(r, 'acct-1'));
  });
});

describe('recipe against the workflow as it is now', () => {
  const fails = (r: Recipe, given = none()) => {
    try {
      checkRecipeAgainstWorkflow(r, workflow, given);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    return null;
  };

  it('names a field gone, an option gone, a value past a limit and an image field gone', () => {
    expect(fails(recipe())).toBeNull();
    const message = fails(recipe({
      parameters: { texts: { look: 'sepia', mood: 'x', caption: 'far too long a caption' }, switchSelections: { effects: ['teleport'] } },
      fixedImages: { logo: { path: '/l.png', sha256: 'b'.repeat(64) } },
    }));
    expect(message).toContain('texts.look: "sepia" is not one of the options');
    expect(message).toContain('texts.mood: is not a text field');
    expect(message).toContain('texts.caption: is longer than 10 characters');
    expect(message).toContain('switchSelections.effects: "teleport" is not an option');
    expect(message).toContain('fixedImages.logo: is not an image field');
  });

  it('names a field the workflow now requires, unless a flag gives it', () => {
    const r = recipe({ parameters: { texts: { caption: 'hi' } } });
    expect(fails(r)).toContain('texts.look: "Look" is required');
    expect(fails(r, none({ text: ['look=warm'] }))).toBeNull();
    // A flag replaces a recipe value the workflow no longer takes.
    expect(fails(recipe({ parameters: { texts: { look: 'sepia' } } }), none({ text: ['look=cool'] }))).toBeNull();
  });

  it('says what changed since the recipe was saved before the fields refused: an option gone', () => {
    const r = recipe({ parameters: { texts: { look: 'warm' }, switchSelections: { effects: ['film'] } } });
    expect(fails(r)).toMatch(/^recipe 'Client A web': option 'film' of 'effects' is gone\. recipe 'Client A web' does not fit workflow grade/);
  });
});

describe('finding the recipe', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-recipe-spec-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('reads a saved recipe by name whatever its case, and a file by its path', async () => {
    const state = join(dir, 'state');
    createRecipeStore(state).save(recipe());
    expect((await loadRecipe('CLIENT a WEB', state)).name).toBe('Client A web');
    await expect(loadRecipe('nobody', state)).rejects.toThrow(UsageError);
    const file = join(dir, 'x.batchroom-recipe.json');
    await writeFile(file, serializeRecipe(recipe({ name: 'From file' })));
    expect(isRecipeFile('x.batchroom-recipe.json') && isRecipeFile('./x') && !isRecipeFile('Client A web')).toBe(true);
    expect((await loadRecipe('x.batchroom-recipe.json', state, dir)).name).toBe('From file');
    await writeFile(join(dir, 'bad.json'), '{"kind":"batchroom-recipe","version":1,"name":"B","workflowId":"grade","budgetPerPhoto":-1}');
    await expect(loadRecipe(join(dir, 'bad.json'), state)).rejects.toThrow(/budgetPerPhoto: must not be negative/);
  });

  it('refuses a fixed image that is missing or whose content changed', async () => {
    const path = join(dir, 'ref.jpg');
    await writeFile(path, 'reference');
    const r = recipe({ fixedImages: { backdrop: { path, sha256: sha256Hex('reference') } } });
    await expect(checkFixedImages(r)).resolves.toBeUndefined();
    await writeFile(path, 'another reference');
    await expect(checkFixedImages(r)).rejects.toThrow(/fixedImages\.backdrop: .* is not the image the recipe was saved with/);
    await rm(path);
    await expect(checkFixedImages(r)).rejects.toThrow(/missing on this computer/);
  });
});
