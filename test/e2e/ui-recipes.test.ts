import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdFor } from '../../main/core/service/account-id';
import { startSandbox, type RunningSandbox } from '../../main/sandbox/index';
import { recipeFingerprint } from '../../shared/recipes/fingerprint';
import { parseRecipe } from '../../shared/recipes/recipe';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// Recipes in the real app (issue 32 item 1): the form saved as a recipe through `batchroom ui` into the state folder,
// picked again in a fresh page, and a batch started from it against the sandbox: each result's sidecar names the
// recipe and the fingerprint of what was paid.

const KEY = 'sk_test_uirecipes_abcdefgh12345678';

let work: string;
let sandbox: RunningSandbox;
let browser: Browser;
let ui: RunningUi;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-recipes-'));
  buildRenderer(join(work, 'renderer'));
  sandbox = await startSandbox({ useEnv: false, executionDurationMs: 200, apiKey: KEY, seed: 3 });
  browser = await launchChromium();
  ui = await startUi({
    rendererDir: join(work, 'renderer'), stateDir: join(work, 'state'), home: join(work, 'home'),
    globalArgs: ['--service-url', sandbox.url], env: { BATCHROOM_API_KEY: KEY },
  });
});

afterAll(async () => {
  await ui?.stop();
  await browser?.close();
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  await page.goto(ui.url);
  await page.getByRole('button', { name: /^Balance: / }).waitFor();
  return page;
}

describe('recipes in the app', () => {
  it('saves the form as a recipe, picks it in a fresh page and starts a batch from it', async () => {
    const setup = await openPage();
    await setup.getByRole('button', { name: /^Color Grade,/ }).click();
    const form = setup.getByRole('form', { name: 'Color Grade settings' });
    await form.waitFor();
    await form.getByRole('combobox', { name: 'Look' }).selectOption({ index: 1 });
    const look = await form.getByRole('combobox', { name: 'Look' }).inputValue();
    await setup.getByRole('button', { name: 'Save as recipe…' }).click();
    const save = setup.getByRole('dialog', { name: 'Save as recipe' });
    await save.getByRole('textbox', { name: 'Recipe name' }).fill('E2E look');
    await save.getByRole('button', { name: 'Save recipe' }).click();
    await save.waitFor({ state: 'detached' });

    // Deliverable 1 with a JSON sidecar, through the recipe's editor.
    await setup.getByRole('button', { name: 'Deliverables (1)…' }).click();
    const editor = setup.getByRole('dialog', { name: 'Deliverables of “E2E look”' });
    await editor.getByRole('group', { name: 'Deliverable 1' }).getByRole('combobox', { name: 'Sidecar' }).selectOption('json');
    await editor.getByRole('button', { name: 'Save recipe' }).click();
    await editor.waitFor({ state: 'detached' });
    await setup.context().close();

    const stored = parseRecipe(JSON.parse(readFileSync(join(work, 'state', 'recipes', 'e2e look.json'), 'utf8')));
    if (!stored.ok) throw new Error(stored.message);
    expect(stored.value).toMatchObject({ workflowId: 'color-grade', parameters: { texts: { look } }, deliverables: [{ sidecar: 'json' }], seenCreditCost: 1 });

    // A fresh page knows nothing of it but what main has: pick it, add photos, start.
    const page = await openPage();
    await page.getByRole('combobox', { name: 'Recipe' }).getByRole('option', { name: 'E2E look' }).waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'Recipe' }).selectOption('E2E look');
    const picked = page.getByRole('form', { name: 'Color Grade settings' });
    await picked.waitFor();
    expect(await picked.getByRole('combobox', { name: 'Look' }).inputValue()).toBe(look);
    const photos = join(work, 'photos');
    const out = join(work, 'out');
    await makePhotos(photos, 3);
    await page.getByRole('textbox', { name: 'Add photos by path' }).fill(photos);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('textbox', { name: 'Output folder' }).fill(out);
    const before = sandbox.stats().executionsCreated;
    await page.getByRole('button', { name: 'Review batch…' }).click();
    await page.getByRole('dialog', { name: 'Batch summary' }).getByRole('button', { name: 'Start 3 photos' }).click();
    await page.getByRole('region', { name: 'Batch Color Grade' }).getByText('Finished').waitFor({ timeout: 90_000 });

    await expect.poll(() => (existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.jpg.json')).length : 0), { timeout: 30_000 }).toBe(3);
    expect(sandbox.stats().executionsCreated - before).toBe(3);
    const fingerprint = recipeFingerprint(stored.value, accountIdFor(sandbox.url, KEY));
    for (const sidecar of readdirSync(out).filter((f) => f.endsWith('.json'))) {
      expect(JSON.parse(readFileSync(join(out, sidecar), 'utf8')).recipe).toEqual({ name: 'E2E look', fingerprint });
    }
    await page.context().close();
  });
});
