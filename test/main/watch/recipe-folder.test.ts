import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderRecipes, recipeParameterOverrides, syncFolderRecipe } from '../../../main/core/recipes/recipe-plan';
import { parametersHash } from '../../../main/core/journal/ledger-key';
import { createRecipeStore } from '../../../main/core/recipes/recipe-store';
import { recipeFingerprint } from '../../../shared/recipes/fingerprint';
import { makeRecipe } from '../../../shared/recipes/recipe';
import { seenOf } from '../../../shared/recipes/recipe-seen';
import { WorkflowDetailSchema, type WorkflowDetail } from '../../../shared/service/model';
import { createFakeEngine, folderConfig, harness, jpegBytes, removeDir, sleep, tempDir, waitFor } from './fakes';

// Issue 32 #1/#2: a hot folder runs a recipe — its batches carry every deliverable and the fingerprint; a recipe
// gone, no longer fitting, or at a new price stops the folder with the reason, and nothing is sent.

let root: string;
let inbox: string;
let out: string;
let stateDir: string;
let workflow: WorkflowDetail;
const closers: Array<() => Promise<void>> = [];

const workflowOf = (creditCost: number, options = ['film', 'grain']) => WorkflowDetailSchema.parse({
  id: 'wf-color', name: 'Colour', creditCost,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo' }], textFields: [{ id: 'look', label: 'Look' }], switchFields: [{ id: 'fx', label: 'FX', options: options.map((id) => ({ id, label: id })) }] },
});

const recipe = () => makeRecipe({
  name: 'Client A', workflowId: 'wf-color', parameters: { texts: { look: 'warm' }, switchSelections: { fx: ['film'] } },
  deliverables: [
    { format: 'jpeg', folder: 'full', size: { fit: 'long-edge', longEdge: 3000 } },
    { format: 'png', folder: 'web', size: { fit: 'contain', width: 1200, height: 1200 } },
    { format: 'webp', folder: 'thumbs', size: { fit: 'long-edge', longEdge: 300 } },
  ],
  ...seenOf(workflowOf(2)),
});

beforeEach(async () => {
  root = await tempDir('br-recipe-folder-');
  inbox = join(root, 'in');
  out = join(root, 'out');
  stateDir = join(root, 'state');
  await mkdir(inbox);
  workflow = workflowOf(2);
  createRecipeStore(stateDir).save(recipe());
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await removeDir(root);
});

function start() {
  const engine = createFakeEngine();
  const h = harness({
    engine,
    recipes: createFolderRecipes({ stateDir, getWorkflow: async () => workflow, account: () => 'acct-1' }),
    syncRecipe: (config) => syncFolderRecipe(config, stateDir),
    recipeOverrides: (config) => recipeParameterOverrides(config, stateDir),
  });
  closers.push(() => h.manager.close());
  return { ...h, engine };
}

/** A recipe's fields without its kind and version (makeRecipe gives a chain version 2). */
const withoutVersion = ({ kind: _kind, version: _version, ...rest }: ReturnType<typeof recipe>) => rest;

const drop = async (name: string) => {
  const path = join(inbox, name);
  await writeFile(path, jpegBytes(`content of ${name}`));
  return path;
};

describe('a hot folder that runs a recipe', { timeout: 30_000 }, () => {
  it('sends the recipe: its workflow and parameters, deliverable 1 as the output, 2…N as further deliverables, its fingerprint', async () => {
    const { manager, engine } = start();
    // The app's editor names the recipe; the folder takes the rest from it (its workflow here is a placeholder).
    const state = await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'client a', parameters: { texts: { look: 'old' } } }));
    expect(state.config).toMatchObject({ workflowId: 'wf-color', parameters: recipe().parameters, outputFormat: 'jpeg' });
    await drop('a.jpg');
    await waitFor(() => engine.submissions.length === 1, 10_000, 'a batch');
    const { spec } = engine.submissions[0]!;
    expect(spec.parameters).toEqual(recipe().parameters);
    expect(spec.output).toMatchObject({ outputFolder: out, folder: 'full', format: 'jpeg', size: { fit: 'long-edge', longEdge: 3000 } });
    expect(spec.deliverables.map((d) => [d.folder, d.format, d.size])).toEqual([
      ['web', 'png', { fit: 'contain', width: 1200, height: 1200 }], ['thumbs', 'webp', { fit: 'long-edge', longEdge: 300 }],
    ]);
    expect(spec.recipe).toEqual({ name: 'Client A', fingerprint: recipeFingerprint(recipe(), 'acct-1') });
  });

  it('a recipe deleted: the folder says so and sends nothing; put back, the photo goes', async () => {
    const { manager, engine, activity } = start();
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    createRecipeStore(stateDir).delete('Client A');
    const photo = await drop('a.jpg');
    await waitFor(() => manager.get('f1').status.reason?.includes("recipe 'Client A' is gone") === true, 10_000, 'the reason');
    expect(activity.some((a) => a.kind === 'failed' && a.path === photo && a.message.includes("recipe 'Client A' is gone"))).toBe(true);
    await sleep(300);
    expect(engine.submissions).toHaveLength(0);
    createRecipeStore(stateDir).save(recipe());
    await waitFor(() => engine.submissions.length === 1, 10_000, 'the batch once the recipe is back');
    expect(engine.submittedPaths()).toEqual([photo]);
  });

  it('a changed price stops the folder with the old and new price; an option gone is named; nothing is sent', async () => {
    const { manager, engine } = start();
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    workflow = workflowOf(3);
    await drop('a.jpg');
    await waitFor(() => manager.get('f1').status.reason?.includes("recipe 'Client A': price changed 2 → 3 credits per photo") === true, 10_000, 'the price');
    workflow = workflowOf(2, ['grain']);
    await waitFor(() => manager.get('f1').status.reason?.includes("option 'film' of 'fx' is gone") === true, 10_000, 'the option');
    expect(engine.submissions).toHaveLength(0);
  });

  it('armed with a recipe that would stop it: said at once, before any photo arrives', async () => {
    const { manager } = start();
    workflow = workflowOf(5);
    const state = await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    expect(state.status.state).toBe('armed');
    expect(state.status.reason).toContain("recipe 'Client A': price changed 2 → 5 credits per photo");
    // Fixed (the price as saved again): nothing to say once it is armed again.
    workflow = workflowOf(2);
    await manager.disarm('f1');
    expect((await manager.arm('f1')).status.reason).toBeNull();
  });

  it('a price accepted for the folder (watch --recipe --yes) is sent at', async () => {
    const { manager, engine } = start();
    workflow = workflowOf(3);
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A', recipeAcceptedCost: 3 }));
    await drop('a.jpg');
    await waitFor(() => engine.submissions.length === 1, 10_000, 'a batch');
  });

  it('an armed folder sends the recipe\'s parameters as saved now: an edit reaches its next batch, the old ones kept as done', async () => {
    const { manager, engine } = start();
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    await drop('a.jpg');
    await waitFor(() => engine.submissions.length === 1, 10_000, 'the first batch');
    // The recipe is edited while the folder stays armed (not saved again): the next photo goes with the new look.
    const edited = makeRecipe({ ...recipe(), parameters: { texts: { look: 'cold' }, switchSelections: { fx: ['grain'] } } });
    createRecipeStore(stateDir).save(edited, { replace: true });
    await drop('b.jpg');
    await waitFor(() => engine.submissions.length === 2, 10_000, 'the second batch');
    const { spec } = engine.submissions[1]!;
    expect(spec.parameters).toEqual(edited.parameters);
    expect(spec.recipe).toEqual({ name: 'Client A', fingerprint: recipeFingerprint(edited, 'acct-1') });
    const config = manager.get('f1').config;
    expect(config.parameters).toEqual(edited.parameters);
    // Photos done with the old parameters still count as done (as when the folder is saved again).
    expect(config.previousSettings).toContainEqual({ workflowId: 'wf-color', parametersHash: parametersHash(recipe().parameters) });
  });

  it('an edit that no longer fits the workflow stops the folder with the reason, and nothing is sent', async () => {
    const { manager, engine } = start();
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    createRecipeStore(stateDir).save(makeRecipe({ ...recipe(), parameters: { texts: { look: 'warm' }, switchSelections: { fx: ['sepia'] } } }), { replace: true });
    await drop('a.jpg');
    await waitFor(() => manager.get('f1').status.reason?.includes("recipe 'Client A'") === true, 10_000, 'the reason');
    expect(manager.get('f1').status.reason).toContain('sepia');
    await sleep(300);
    expect(engine.submissions).toHaveLength(0);
  });

  it('watch --recipe with a flag beside it: the flag\'s value stays, the recipe\'s other edits are followed', async () => {
    const { manager, engine } = start();
    // What `watch --recipe 'Client A' --text look=bright` saves for its run (not persisted).
    await manager.save(folderConfig({
      path: inbox, outputFolder: out, recipe: 'Client A', workflowId: 'wf-color', parameters: { texts: { look: 'bright' }, switchSelections: { fx: ['film'] } },
    }), { persist: false });
    createRecipeStore(stateDir).save(makeRecipe({ ...recipe(), parameters: { texts: { look: 'cold' }, switchSelections: { fx: ['grain'] } } }), { replace: true });
    await drop('a.jpg');
    await waitFor(() => engine.submissions.length === 1, 10_000, 'a batch');
    expect(engine.submissions[0]!.spec.parameters).toEqual({ texts: { look: 'bright' }, switchSelections: { fx: ['grain'] } });
  });

  it('the dry run lists every file each photo becomes: each deliverable in its folder, as the estimate lists them', async () => {
    const { manager } = start();
    const photo = await drop('a.jpg');
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A', enabled: false }));
    const report = await manager.dryRun('f1');
    expect(report.deliverables).toEqual([
      { folder: 'full', format: 'jpeg', size: { fit: 'long-edge', longEdge: 3000 }, watermark: false },
      { folder: 'web', format: 'png', size: { fit: 'contain', width: 1200, height: 1200 }, watermark: false },
      { folder: 'thumbs', format: 'webp', size: { fit: 'long-edge', longEdge: 300 }, watermark: false },
    ]);
    expect(report.toProcess).toHaveLength(1);
    const [item] = report.toProcess;
    expect(item!.path).toBe(photo);
    // Deliverable 1 in its sub-folder (it was named at the output folder's root before), then the others.
    expect(item!.output).toBe(join(out, 'full', 'a_wf-color.jpg'));
    expect(item!.outputs).toEqual([join(out, 'full', 'a_wf-color.jpg'), join(out, 'web', 'a_wf-color.png'), join(out, 'thumbs', 'a_wf-color.webp')]);
  });

  it('a chain recipe is refused with the reason and nothing is sent (fixed images are sent, a chain is not yet)', async () => {
    const { manager, engine } = start();
    createRecipeStore(stateDir).save(makeRecipe({ ...withoutVersion(recipe()), steps: [{ workflowId: 'wf-color', parameters: { texts: { look: 'cool' } } }] }), { replace: true });
    await manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Client A' }));
    await drop('a.jpg');
    await waitFor(() => manager.get('f1').status.reason?.includes("recipe 'Client A' is a chain of 2 steps") === true, 10_000, 'the reason');
    await sleep(300);
    expect(engine.submissions).toHaveLength(0);
  });
});
