import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// A whole batch without a mouse: from page load, only Tab, Enter, arrows and typing, in the real app (browser host
// with its embedded sandbox) — choose a workflow, fill the form, add photos, start, confirm, and reach a saved result.
// Every key press is counted: reaching the first field of a workflow must stay short.

let work: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;
let presses = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-keys-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  await makePhotos(join(work, 'shoot'), 3);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: join(work, 'home') });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 }, colorScheme: 'light' });
  page = await context.newPage();
  await page.goto(ui.url);
  await page.getByRole('button', { name: /^Balance: / }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Focused { tag: string; role: string | null; name: string; checked: string | null }

/** What has the focus, as a screen reader would announce it (tag, role, a short name). */
function focused(): Promise<Focused> {
  return page.evaluate<Focused>(`(() => {
    const el = document.activeElement;
    const labelled = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
    return { tag: el.tagName.toLowerCase(), role: el.getAttribute('role'), name: labelled.replace(/\\s+/g, ' ').trim().slice(0, 80), checked: el.getAttribute('aria-checked') };
  })()`);
}

async function press(key: string): Promise<void> {
  presses++;
  await page.keyboard.press(key);
}

/** Presses Tab until the focused element matches; fails after 40 presses (nobody tabs further). */
async function tabTo(what: string, matches: (f: Focused) => boolean): Promise<Focused> {
  for (let n = 0; n < 40; n++) {
    await press('Tab');
    const now = await focused();
    if (matches(now)) return now;
  }
  throw new Error(`40 Tab presses did not reach ${what} (focus is on ${JSON.stringify(await focused())})`);
}

describe('a batch from page load with the keyboard only', () => {
  it('chooses a workflow, fills the form, adds photos, starts, confirms and gets saved results', async () => {
    await tabTo('the skip link', (f) => f.name === 'Skip to content');
    await press('Enter');
    await tabTo('the Color Grade card', (f) => f.tag === 'button' && f.name.startsWith('Color Grade'));
    await press('Enter');
    // Choosing a workflow takes the user to its first field, not back to the catalog. (Where it does not, the
    // count goes on with the Tab presses a user would need, so the number below is what it costs either way.)
    const isLook = (f: Focused) => f.tag === 'select' && /^Look/.test(f.name);
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    await page.waitForTimeout(200);
    const landed = isLook(await focused());
    if (!landed) await tabTo('the Look field', isLook);
    const toFirstField = presses;
    process.stdout.write(`key presses from page load to the first field: ${toFirstField}\n`);
    expect(landed).toBe(true);
    expect(toFirstField).toBeLessThanOrEqual(8);

    await press('ArrowDown');
    const form = page.getByRole('form', { name: 'Color Grade settings' });
    expect(await form.getByRole('combobox', { name: /Look/ }).inputValue()).not.toBe('');

    // The aspect ratio is one radio group: one Tab stop, arrows move the choice.
    const ratio = await tabTo('the aspect ratio group', (f) => f.role === 'radio');
    expect(ratio).toMatchObject({ name: 'Original', checked: 'true' });
    await press('ArrowRight');
    await press('ArrowRight');
    expect(await focused()).toMatchObject({ name: 'Aspect ratio 2:3', checked: 'true' });
    expect(await form.getByRole('radio', { name: 'Original' }).getAttribute('aria-checked')).toBe('false');
    // The next Tab leaves the group (roving tabindex): it lands on the image-size group, not on 3:4.
    expect(await tabTo('the image size group', (f) => f.role === 'radio')).toMatchObject({ name: 'Default' });

    await tabTo('the photo path field', (f) => f.tag === 'input' && f.name === 'Add photos by path');
    await page.keyboard.type(join(work, 'shoot'));
    await press('Enter');
    await expect.poll(() => page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem').count()).toBe(1);
    await tabTo('the output folder field', (f) => f.tag === 'input' && f.name === 'Output folder');
    await page.keyboard.type(join(work, 'out'));
    await tabTo('Review batch…', (f) => f.name === 'Review batch…');
    await press('Enter');

    // The summary opens on its Start button; Escape returns to the button that opened it, not to the page.
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await expect.poll(focused, { timeout: 20_000 }).toMatchObject({ tag: 'button', name: 'Start 3 photos' });
    await press('Escape');
    await summary.waitFor({ state: 'detached' });
    await expect.poll(focused).toMatchObject({ name: 'Review batch…' });
    await press('Enter');
    await expect.poll(focused, { timeout: 20_000 }).toMatchObject({ tag: 'button', name: 'Start 3 photos' });
    await press('Enter');

    // Started: the queue shows the batch and the focus is on something there, never lost to <body>.
    const panel = page.getByRole('region', { name: 'Batch Color Grade' });
    await panel.waitFor();
    expect((await focused()).tag).not.toBe('body');
    await panel.getByText('Finished').waitFor({ timeout: 60_000 });
    await tabTo('Review results', (f) => f.name === 'Review results');
    await press('Enter');
    await page.getByRole('img', { name: /^After: / }).waitFor();
    const saved = existsSync(join(work, 'out')) ? readdirSync(join(work, 'out')).filter((f) => f.endsWith('.jpg')) : [];
    expect(saved).toHaveLength(3);
    process.stdout.write(`key presses for the whole batch: ${presses}\n`);
  });
});
