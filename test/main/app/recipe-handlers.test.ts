import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRecipeHandlers } from '../../../main/core/app/recipe-handlers';
import { createRecipeStore } from '../../../main/core/recipes/recipe-store';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher, type InvokeDispatcher } from '../../../shared/ipc/dispatch';
import { recipeFingerprint } from '../../../shared/recipes/fingerprint';
import { serializeRecipe } from '../../../shared/recipes/recipe';

// recipes:* (issue 32 item 1, the app): the CLI's store behind the IPC contract, against a real state folder. Images
// arrive by path and are hashed in main; the fingerprint names the account main pays from.

let root: string;
let account = 'acct-1';
let dispatch: InvokeDispatcher;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
// Real images (main refuses to hash anything else a renderer names).
const pixel = (r: number, format: 'png' | 'jpeg') => sharp({ create: { width: 4, height: 4, channels: 3, background: { r, g: 0, b: 0 } } })[format]().toBuffer();
let REF: Buffer;
let REF2: Buffer;
let LOGO: Buffer;
beforeAll(async () => {
  [REF, REF2, LOGO] = await Promise.all([pixel(10, 'jpeg'), pixel(200, 'jpeg'), pixel(90, 'png')]);
});

const form = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  workflowId: 'color-grade',
  parameters: { texts: { prompt: 'warm' }, globalOverrides: { imageSize: '2K' } },
  fixedImages: { reference: join(root, 'ref.jpg') },
  budgetPerPhoto: 2,
  deliverables: [{ format: 'jpeg', quality: 88, folder: 'web' }, { format: 'png', folder: 'print', size: { fit: 'long-edge', longEdge: 3000 } }],
  ...extra,
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'batchroom-recipe-handlers-'));
  writeFileSync(join(root, 'ref.jpg'), REF);
  writeFileSync(join(root, 'logo.png'), LOGO);
  account = 'acct-1';
  dispatch = createInvokeDispatcher(contract, createRecipeHandlers({ store: createRecipeStore(join(root, 'state')), account: () => account }) as never);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('recipes:* handlers', () => {
  it('a save from the form keeps a chain recipe\'s later steps (the form edits step 1 and the deliverables only)', async () => {
    const chain = { kind: 'batchroom-recipe', version: 2, name: 'Chain', workflowId: 'color-grade', parameters: {},
      steps: [{ workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain'] } } }], keepSteps: true };
    expect(await dispatch('recipes:import', { text: JSON.stringify(chain) })).toMatchObject({ ok: true });
    const saved = await dispatch('recipes:save', { ...form('Chain'), fixedImages: {}, replace: true });
    expect(saved).toMatchObject({ ok: true, data: { recipe: { steps: chain.steps, keepSteps: true, deliverables: [{ format: 'jpeg' }, { format: 'png' }] } } });
    const file = JSON.parse(readFileSync(join(root, 'state', 'recipes', 'chain.json'), 'utf8'));
    expect(file).toMatchObject({ version: 2, steps: chain.steps, keepSteps: true });
  });

  it('saves the form as a recipe file with its images hashed in main, and lists and reads it back', async () => {
    const watermark = { path: join(root, 'logo.png'), position: 'top-left', scale: 0.1, opacity: 0.5 };
    const saved = await dispatch('recipes:save', form('Client A web', {
      deliverables: [{ format: 'jpeg', quality: 88, folder: 'web' }, { format: 'png', folder: 'print', watermark }],
    }));
    expect(saved).toMatchObject({ ok: true, data: { recipe: { name: 'Client A web', fixedImages: { reference: { sha256: sha(REF) } } } } });
    const file = JSON.parse(readFileSync(join(root, 'state', 'recipes', 'client a web.json'), 'utf8'));
    expect(file.deliverables[1].watermark).toEqual({ ...watermark, sha256: sha(LOGO) });
    expect(file.budgetPerPhoto).toBe(2);

    const listed = await dispatch('recipes:list', {});
    expect(listed).toMatchObject({ ok: true, data: { recipes: [{ name: 'Client A web' }], problems: [] } });
    const got = await dispatch('recipes:get', { name: 'client a WEB' });
    expect(got).toMatchObject({ ok: true, data: { recipe: { name: 'Client A web' }, images: [{ status: 'ok' }, { status: 'ok' }] } });
  });

  it('keeps the price and fields of the workflow it was saved against, and saves without them when the service cannot say', async () => {
    const workflow = {
      id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2,
      inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }, { id: 'reference', label: 'Reference', required: false }], textFields: [{ id: 'prompt', label: 'Prompt', required: true }], switchFields: [] },
    };
    let online = true;
    const withService = createInvokeDispatcher(contract, createRecipeHandlers({
      store: createRecipeStore(join(root, 'state')), account: () => account,
      workflow: async () => { if (!online) throw new Error('offline'); return workflow; },
    }) as never);
    expect(await withService('recipes:save', form('Seen'))).toMatchObject({ ok: true, data: { recipe: {
      seenCreditCost: 2, seenSchema: { texts: ['prompt'], images: ['photo', 'reference'], required: ['photo', 'prompt'], switches: {} },
    } } });
    online = false;
    const offline = await withService('recipes:save', form('Unseen'));
    expect(offline).toMatchObject({ ok: true });
    expect(offline.ok && (offline.data as { recipe: Record<string, unknown> }).recipe).not.toHaveProperty('seenCreditCost');
  });

  it('refuses a name taken, and replaces only when asked', async () => {
    await dispatch('recipes:save', form('Portraits'));
    expect(await dispatch('recipes:save', form('portraits'))).toMatchObject({ ok: false, code: 'conflict' });
    expect(await dispatch('recipes:save', form('Portraits', { budgetPerPhoto: 5, replace: true }))).toMatchObject({ ok: true, data: { recipe: { budgetPerPhoto: 5 } } });
  });

  it('says which image is missing instead of saving a recipe that names nothing', async () => {
    const answer = await dispatch('recipes:save', form('Gone', { fixedImages: { reference: join(root, 'nope.jpg') } }));
    expect(answer).toMatchObject({ ok: false, code: 'validation', message: expect.stringContaining('fixedImages.reference') });
  });

  it('duplicates, renames and deletes', async () => {
    await dispatch('recipes:save', form('A'));
    expect(await dispatch('recipes:duplicate', { from: 'a', to: 'B' })).toMatchObject({ ok: true, data: { name: 'B' } });
    expect(await dispatch('recipes:rename', { from: 'B', to: 'C' })).toMatchObject({ ok: true, data: { name: 'C' } });
    expect(await dispatch('recipes:delete', { name: 'a' })).toEqual({ ok: true, data: { deleted: 'A' } });
    expect(await dispatch('recipes:list', {})).toMatchObject({ ok: true, data: { recipes: [{ name: 'C' }] } });
    expect(await dispatch('recipes:delete', { name: 'A' })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('exports the stored bytes and imports them into another state folder as the same recipe', async () => {
    await dispatch('recipes:save', form('Share me'));
    const exported = await dispatch('recipes:export', { name: 'share me' });
    if (!exported.ok) throw new Error(exported.message);
    const { fileName, text } = exported.data as { fileName: string; text: string };
    expect(fileName).toBe('Share me.batchroom-recipe.json');
    expect(text).toBe(readFileSync(join(root, 'state', 'recipes', 'share me.json'), 'utf8'));

    const other = createInvokeDispatcher(contract, createRecipeHandlers({ store: createRecipeStore(join(root, 'other')), account: () => account }) as never);
    const imported = await other('recipes:import', { text });
    expect(imported).toMatchObject({ ok: true, data: { replaced: false, recipe: { name: 'Share me' }, images: [{ status: 'ok' }] } });
    expect(readFileSync(join(root, 'other', 'recipes', 'share me.json'), 'utf8')).toBe(text);
    expect(await other('recipes:import', { text })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await other('recipes:import', { text, replace: true })).toMatchObject({ ok: true, data: { replaced: true } });
  });

  it('refuses a file that is not a recipe, naming the problem, and writes nothing', async () => {
    expect(await dispatch('recipes:import', { text: 'not json' })).toMatchObject({ ok: false, code: 'validation', message: expect.stringContaining('not valid JSON') });
    const newer = JSON.stringify({ kind: 'batchroom-recipe', version: 3, name: 'x' });
    expect(await dispatch('recipes:import', { text: newer })).toMatchObject({ ok: false, message: expect.stringContaining('newer') });
    expect(await dispatch('recipes:list', {})).toEqual({ ok: true, data: { recipes: [], problems: [] } });
  });

  it('computes the fingerprint in main, from the fixed image contents and the account in use', async () => {
    const saved = await dispatch('recipes:save', form('F'));
    if (!saved.ok) throw new Error(saved.message);
    const recipe = (saved.data as { recipe: Parameters<typeof serializeRecipe>[0] }).recipe;
    const ofForm = await dispatch('recipes:fingerprint', { workflowId: 'color-grade', parameters: form('F').parameters, fixedImages: form('F').fixedImages });
    const ofSaved = await dispatch('recipes:fingerprint', { name: 'F' });
    expect(ofForm).toMatchObject({ ok: true, data: { fingerprint: recipeFingerprint(recipe, 'acct-1'), parts: { account: 'acct-1', fixedImages: { reference: sha(REF) } } } });
    expect(ofSaved).toEqual(ofForm);

    writeFileSync(join(root, 'ref.jpg'), REF2);
    const changed = await dispatch('recipes:fingerprint', { workflowId: 'color-grade', parameters: form('F').parameters, fixedImages: form('F').fixedImages });
    expect(changed.ok && changed.data).not.toEqual(ofForm.ok && ofForm.data);
    account = 'acct-2';
    const otherAccount = await dispatch('recipes:fingerprint', { name: 'F' });
    expect(otherAccount).toMatchObject({ ok: true, data: { parts: { account: 'acct-2' } } });
    expect(serializeRecipe(recipe)).toContain('"budgetPerPhoto": 2');
  });

  it('answers the recipe a batch was made from, as its spec keeps it, and null without one', async () => {
    const fingerprint = 'a'.repeat(64);
    const withJournal = createInvokeDispatcher(contract, createRecipeHandlers({
      store: createRecipeStore(join(root, 'state')), account: () => account,
      batchRecipe: async (id) => (id === 'b1' ? { name: 'F', fingerprint } : null),
      batchSent: async (id) => (id === 'b1' ? { workflowId: 'wf', parameters: { texts: { look: 'warm' } } } : null),
    }) as never);
    expect(await withJournal('recipes:ofBatch', { batchId: 'b1' })).toEqual({
      ok: true, data: { recipe: { name: 'F', fingerprint }, sent: { workflowId: 'wf', parameters: { texts: { look: 'warm' } } } },
    });
    expect(await withJournal('recipes:ofBatch', { batchId: 'b2' })).toEqual({ ok: true, data: { recipe: null, sent: null } });
    expect(await dispatch('recipes:ofBatch', { batchId: 'b1' })).toEqual({ ok: true, data: { recipe: null, sent: null } });
  });
});

describe('recipes:* refuse what is not a recipe or an image (from the review)', () => {
  it('a name is never a path: get, delete and rename with ../ are refused and nothing outside is read or removed', async () => {
    writeFileSync(join(root, 'token.json'), 'sk-live-SECRET-0123456789 rest of file');
    const got = await dispatch('recipes:get', { name: '../../token' });
    expect(got.ok).toBe(false);
    expect(JSON.stringify(got)).not.toContain('SECRET');
    const deleted = await dispatch('recipes:delete', { name: '../../token' });
    expect(deleted.ok).toBe(false);
    const renamed = await dispatch('recipes:rename', { from: '../../token', to: 'Mine' });
    expect(renamed.ok).toBe(false);
    expect(readFileSync(join(root, 'token.json'), 'utf8')).toContain('SECRET');
  });

  it('hashes only images: a text file, a device or a folder named as a watermark or fixed image is refused, its hash never told', async () => {
    writeFileSync(join(root, 'secret.txt'), 'top secret');
    const asWatermark = await dispatch('recipes:save', form('W', { fixedImages: {}, deliverables: [{ watermark: { path: join(root, 'secret.txt') } }] }));
    expect(asWatermark).toMatchObject({ ok: false });
    expect(JSON.stringify(asWatermark)).not.toContain(sha(Buffer.from('top secret')));
    const asFixed = await dispatch('recipes:fingerprint', { workflowId: 'color-grade', fixedImages: { reference: join(root, 'secret.txt') } });
    expect(asFixed).toMatchObject({ ok: false });
    // A device would be read without end: refused at once, not after hashing.
    const device = await dispatch('recipes:save', form('Z', { fixedImages: {}, deliverables: [{ watermark: { path: '/dev/zero' } }] }));
    expect(device).toMatchObject({ ok: false });
    expect((await dispatch('recipes:save', form('D', { fixedImages: { reference: root } }))).ok).toBe(false);
  });
});
