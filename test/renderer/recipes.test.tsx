import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sha256Hex } from '../../shared/recipes/sha256';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRecipe, type Recipe } from '../../shared/recipes/recipe';
import { FakeFailure } from './helpers/fake-bridge';
import { batch, estimate, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

// Recipes in the app (issue 32 item 1): save the form as one, pick one into the form, manage the list, share, and a
// Continue after a trial that says what changed in the recipe since.

afterEach(cleanup);

const hex = (text: string) => sha256Hex(text);

/** A recipes store as main keeps it, in memory; the fingerprint stands in for main's (parameters + images + account). */
function recipeBridge(initial: Recipe[] = [], extra: Parameters<typeof standardBridge>[0] = {}) {
  const saved = new Map(initial.map((r) => [r.name.toLowerCase(), r]));
  const take = (name: string) => {
    const found = saved.get(name.toLowerCase());
    if (!found) throw new FakeFailure('not_found', `no recipe named "${name}"`);
    return found;
  };
  const fake = standardBridge({
    'recipes:list': () => ({ recipes: [...saved.values()], problems: [] }),
    'recipes:get': ({ name }) => ({ recipe: take(name), images: [] }),
    'recipes:save': (args) => {
      const { replace, fixedImages = {}, ...rest } = args;
      if (!replace && saved.has(rest.name.toLowerCase())) throw new FakeFailure('conflict', `a recipe named "${rest.name}" already exists`);
      const recipe = makeRecipe({ ...rest, fixedImages: Object.fromEntries(Object.entries(fixedImages).map(([f, p]) => [f, { path: p, sha256: hex(p) }])) } as never);
      saved.set(recipe.name.toLowerCase(), recipe);
      return { recipe, images: [] };
    },
    'recipes:duplicate': ({ from, to }) => {
      const copy = { ...take(from), name: to };
      saved.set(to.toLowerCase(), copy);
      return copy;
    },
    'recipes:rename': ({ from, to }) => {
      const renamed = { ...take(from), name: to };
      saved.delete(from.toLowerCase());
      saved.set(to.toLowerCase(), renamed);
      return renamed;
    },
    'recipes:delete': ({ name }) => {
      const { name: deleted } = take(name);
      saved.delete(name.toLowerCase());
      return { deleted };
    },
    'recipes:fingerprint': (args) => {
      const edit = 'name' in args ? take(args.name) : args;
      const parts = { workflowId: edit.workflowId, parametersHash: hex(JSON.stringify(edit.parameters)), fixedImages: {}, account: 'acct' };
      return { fingerprint: hex(JSON.stringify(parts)), parts };
    },
    ...extra,
  });
  return { fake, saved };
}

const captionRecipe = (over: Partial<Parameters<typeof makeRecipe>[0]> = {}) => makeRecipe({
  name: 'Client A web', workflowId: 'caption-watermark',
  parameters: { texts: { caption: 'Hello', position: 'top' }, switchSelections: { style: ['banner'] } },
  deliverables: [{ folder: 'web', format: 'jpeg', quality: 80 }, { folder: 'print', format: 'tiff', size: { fit: 'long-edge', longEdge: 3000 } }],
  ...over,
});

async function pick(user: ReturnType<typeof userEvent.setup>, name: string) {
  await waitFor(() => expect(screen.getByRole('option', { name })).toBeInTheDocument());
  await user.selectOptions(screen.getByRole('combobox', { name: 'Recipe' }), name);
  await screen.findByRole('form', { name: 'Caption & Watermark settings' });
}

describe('recipes on the Workflows screen', () => {
  it('saves the form as a recipe: workflow, texts, switches, size and the output as deliverable 1', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge();
    renderApp(fake);
    await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
    await user.type(await screen.findByRole('textbox', { name: /Caption/ }), 'Sale');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Image size' })).getByRole('radio', { name: '2K' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'File format' }), 'PNG');
    await user.click(screen.getByRole('button', { name: 'Save as recipe…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as recipe' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Recipe name' }), 'Sale banner');
    await user.click(within(dialog).getByRole('button', { name: 'Save recipe' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save as recipe' })).toBeNull());
    expect(fake.callsTo('recipes:save')[0]).toMatchObject({
      name: 'Sale banner', workflowId: 'caption-watermark', replace: false, budgetPerPhoto: null,
      parameters: { texts: { caption: 'Sale', position: 'bottom' }, switchSelections: { style: ['shadow'] }, globalOverrides: { imageSize: '2K' } },
      deliverables: [{ format: 'png', folder: '', size: { fit: 'original' } }],
    });
    // It is the form's recipe now, and the picker lists it.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Recipe' })).toHaveValue('Sale banner'));
  });

  it('says a name already taken under the field, and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge([captionRecipe()]);
    renderApp(fake);
    await pick(user, 'Client A web');
    await user.click(screen.getByRole('button', { name: 'Save as recipe…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as recipe' });
    const name = within(dialog).getByRole('textbox', { name: 'Recipe name' });
    await user.clear(name);
    await user.type(name, 'client a WEB');
    await user.click(within(dialog).getByRole('button', { name: 'Save recipe' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('a recipe named "client a WEB" already exists');
  });

  it('fills the form from a picked recipe, leaves out an option the workflow no longer has and says so', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge([captionRecipe({ parameters: { texts: { caption: 'Hello', position: 'top' }, switchSelections: { style: ['banner', 'neon'] } }, seenCreditCost: 1 })]);
    renderApp(fake);
    await pick(user, 'Client A web');
    expect(screen.getByRole('textbox', { name: /Caption/ })).toHaveValue('Hello');
    expect(screen.getByRole('combobox', { name: 'Position' })).toHaveValue('top');
    const warnings = screen.getByRole('status', { name: 'Recipe warnings' });
    expect(warnings).toHaveTextContent('switchSelections.style');
    expect(warnings).toHaveTextContent('neon');
    // What changed since it was saved, said before anything is spent: the price (1 then, 2 now) and the option gone.
    expect(warnings).toHaveTextContent("recipe 'Client A web': price changed 1 → 2 credits per photo; option 'neon' of 'style' is gone");
    // The gone option is not sent: the selection falls back to the workflow's default.
    expect(within(screen.getByRole('group', { name: 'Style' })).getByRole('button', { name: 'Drop shadow' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Deliverables (2)…' })).toBeInTheDocument();
  });

  it('starts a batch from a recipe: deliverable 1 as the output, the others beside it, name and fingerprint from main', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge([captionRecipe()], {
      'batches:estimate': () => estimate({ workflowId: 'caption-watermark' }),
      'batches:create': () => batch({ workflowName: 'Caption & Watermark' }),
      'batches:items': () => ({ total: 0, items: [] }),
    });
    const { store } = renderApp(fake);
    await pick(user, 'Client A web');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/shoot{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    await user.click(within(dialog).getByRole('button', { name: /^Start/ }));
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    const spec = fake.callsTo('batches:create')[0] as Record<string, unknown>;
    expect(spec).toMatchObject({
      workflowId: 'caption-watermark',
      parameters: { texts: { caption: 'Hello', position: 'top' }, switchSelections: { style: ['banner'] } },
      output: { folder: 'web', format: 'jpeg', quality: 80, outputFolder: '/out' },
      deliverables: [{ folder: 'print', format: 'tiff', size: { fit: 'long-edge', longEdge: 3000 } }],
      recipe: { name: 'Client A web', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(fake.callsTo('recipes:fingerprint')[0]).toEqual({ workflowId: 'caption-watermark', parameters: spec.parameters, fixedImages: {} });
  });

  it('sends a recipe\'s own parameters while the form says the same (as run --recipe does), the form\'s once changed', async () => {
    const user = userEvent.setup();
    // Saved by the CLI: only the caption; the form spells out the defaults (position bottom, style shadow).
    const { fake } = recipeBridge([captionRecipe({ parameters: { texts: { caption: 'Hello' } } })], {
      'batches:estimate': () => estimate({ workflowId: 'caption-watermark' }),
    });
    renderApp(fake);
    await pick(user, 'Client A web');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/shoot{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    await screen.findByRole('dialog', { name: 'Batch summary' });
    expect((fake.callsTo('batches:estimate').at(-1) as { parameters: unknown }).parameters).toEqual({ texts: { caption: 'Hello' } });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.type(screen.getByRole('textbox', { name: /Caption/ }), '!');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    await waitFor(() => expect((fake.callsTo('batches:estimate').at(-1) as { parameters: unknown }).parameters)
      .toEqual({ texts: { caption: 'Hello!', position: 'bottom' }, switchSelections: { style: ['shadow'] } }));
  });

  it('edits the deliverables: adds one (up to 8), removes one, and saves the recipe with them', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge([captionRecipe()]);
    renderApp(fake);
    await pick(user, 'Client A web');
    await user.click(screen.getByRole('button', { name: 'Deliverables (2)…' }));
    const editor = await screen.findByRole('dialog', { name: 'Deliverables of “Client A web”' });
    await user.click(within(editor).getByRole('button', { name: 'Remove deliverable 2' }));
    for (let n = 0; n < 7; n += 1) await user.click(within(editor).getByRole('button', { name: 'Add deliverable' }));
    expect(within(editor).getByRole('button', { name: 'At most 8 deliverables' })).toBeDisabled();
    const eighth = within(editor).getByRole('group', { name: 'Deliverable 8' });
    await user.selectOptions(within(eighth).getByRole('combobox', { name: 'Size' }), 'Fill W×H (crop)');
    await user.type(within(editor).getByRole('spinbutton', { name: 'Budget per photo (credits)' }), '3');
    await user.click(within(editor).getByRole('button', { name: 'Save recipe' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Deliverables of/ })).toBeNull());
    const sent = fake.callsTo('recipes:save')[0] as { deliverables: unknown[]; replace: boolean; budgetPerPhoto: number };
    expect(sent.replace).toBe(true);
    expect(sent.budgetPerPhoto).toBe(3);
    expect(sent.deliverables).toHaveLength(8);
    expect(sent.deliverables[0]).toMatchObject({ folder: 'web' });
    expect(sent.deliverables[7]).toMatchObject({ size: { fit: 'cover', width: 1080, height: 1080 } });
  });
});

describe('the Recipes list', () => {
  it('duplicates, renames and deletes (after asking)', async () => {
    const user = userEvent.setup();
    const { fake, saved } = recipeBridge([captionRecipe()]);
    renderApp(fake);
    await user.click(await screen.findByRole('button', { name: 'Recipes…' }));
    let list = await screen.findByRole('dialog', { name: 'Recipes' });
    await user.click(within(await within(list).findByRole('listitem', { name: 'Client A web' })).getByRole('button', { name: 'Duplicate' }));
    const copy = await screen.findByRole('dialog', { name: 'Duplicate “Client A web”' });
    await user.click(within(copy).getByRole('button', { name: 'Duplicate' }));
    list = await screen.findByRole('dialog', { name: 'Recipes' });
    await user.click(within(await within(list).findByRole('listitem', { name: 'Client A web copy' })).getByRole('button', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename “Client A web copy”' });
    const field = within(rename).getByRole('textbox', { name: 'New name' });
    await user.clear(field);
    await user.type(field, 'Client B web');
    await user.click(within(rename).getByRole('button', { name: 'Rename' }));
    list = await screen.findByRole('dialog', { name: 'Recipes' });
    await user.click(within(await within(list).findByRole('listitem', { name: 'Client A web' })).getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete recipe “Client A web”?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete recipe' }));
    await waitFor(() => expect([...saved.values()].map((r) => r.name)).toEqual(['Client B web']));
    expect(fake.callsTo('recipes:duplicate')).toEqual([{ from: 'Client A web', to: 'Client A web copy' }]);
    expect(fake.callsTo('recipes:rename')).toEqual([{ from: 'Client A web copy', to: 'Client B web' }]);
    expect(fake.callsTo('recipes:delete')).toEqual([{ name: 'Client A web' }]);
  });

  it('imports a picked file, and shows why a bad one was refused', async () => {
    const user = userEvent.setup();
    const { fake } = recipeBridge([], {
      'recipes:import': ({ text }) => {
        if (!text.includes('batchroom-recipe')) throw new FakeFailure('validation', 'recipe: kind is missing: not a Batchroom recipe file');
        return { recipe: captionRecipe(), images: [], replaced: false };
      },
    });
    renderApp(fake);
    await user.click(await screen.findByRole('button', { name: 'Recipes…' }));
    const list = await screen.findByRole('dialog', { name: 'Recipes' });
    const input = within(list).getByLabelText('Import a recipe file');
    await user.upload(input, new File(['{"name":"x"}'], 'x.json', { type: 'application/json' }));
    expect(await within(list).findByText('recipe: kind is missing: not a Batchroom recipe file')).toBeInTheDocument();
    await user.upload(input, new File([JSON.stringify({ kind: 'batchroom-recipe' })], 'ok.batchroom-recipe.json', { type: 'application/json' }));
    await waitFor(() => expect(fake.callsTo('recipes:import')).toHaveLength(2));
    expect(fake.callsTo('recipes:import')[1]).toEqual({ text: JSON.stringify({ kind: 'batchroom-recipe' }) });
  });
});

describe('Try first → Continue from a recipe', () => {
  it('says what changed in the recipe since the trial before Continue spends', async () => {
    const user = userEvent.setup();
    const tried = batch({ id: 'b1', workflowId: 'caption-watermark', workflowName: 'Caption & Watermark', state: 'completed', total: 3, trialRest: 9, counts: { ...batch().counts, pending: 0, saved: 3 } });
    const { fake, saved } = recipeBridge([captionRecipe()], {
      'batches:estimate': () => estimate({ workflowId: 'caption-watermark', itemCount: 12, totalCost: 24, costPerItem: 2 }),
      'batches:create': () => tried,
      'batches:items': () => ({ total: 0, items: [] }),
      'batches:continueTrial': () => batch({ id: 'b2' }),
    });
    const { store } = renderApp(fake);
    await pick(user, 'Client A web');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/shoot{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Batch summary' })).getByRole('button', { name: 'Try on 3 photos first' }));
    await waitFor(() => expect(store.getState().view).toBe('queue'));
    await waitFor(() => expect(store.getState().trials.b1?.name).toBe('Client A web'));

    // Someone changes the recipe's caption meanwhile (the list, another window, the CLI).
    saved.set('client a web', { ...captionRecipe(), parameters: { ...captionRecipe().parameters, texts: { caption: 'Bye', position: 'top' } } });
    act(() => store.getState().upsertBatches([tried]));
    await user.click(await screen.findByRole('button', { name: 'Continue with the other 9' }));
    const ask = await screen.findByRole('dialog', { name: 'Continue with the other 9 photos?' });
    const changed = await within(ask).findByRole('alert', { name: 'Changed since the trial' });
    expect(changed).toHaveTextContent('recipe “Client A web” as saved now: the texts, switches or size sent with each photo');
    expect(changed).toHaveTextContent('Continue runs the settings you tried');
    expect(fake.callsTo('batches:continueTrial')).toEqual([]);
    await user.click(within(ask).getByRole('button', { name: /^Continue \(up to/ }));
    await waitFor(() => expect(fake.callsTo('batches:continueTrial')).toEqual([{ batchId: 'b1' }]));
  });

  it('after a restart, compares the recipe as saved now with the fingerprint the tried batch keeps', async () => {
    const user = userEvent.setup();
    const tried = batch({ workflowId: 'caption-watermark', workflowName: 'Caption & Watermark', state: 'completed', total: 3, trialRest: 9, counts: { ...batch().counts, pending: 0, saved: 3 } });
    const { fake } = recipeBridge([captionRecipe()], {
      'batches:list': () => [tried],
      'batches:items': () => ({ total: 0, items: [] }),
      'recipes:ofBatch': ({ batchId }) => ({ recipe: batchId === 'b1' ? { name: 'Client A web', fingerprint: 'f'.repeat(64) } : null }),
    });
    const { store } = renderApp(fake);
    act(() => store.getState().setView('queue'));
    await user.click(await screen.findByRole('button', { name: 'Continue with the other 9' }));
    const ask = await screen.findByRole('dialog', { name: 'Continue with the other 9 photos?' });
    expect(await within(ask).findByRole('alert', { name: 'Changed since the trial' }))
      .toHaveTextContent('recipe “Client A web” as saved now: what is sent and paid for is not what was tried');
    expect(fake.callsTo('recipes:ofBatch')).toEqual([{ batchId: 'b1' }]);
  });
});
