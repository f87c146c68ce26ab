import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight, type Shot } from './screenshots';
import { buildRenderer, dropFiles, launchChromium, makePhotos, screenshot, startUi, type RunningUi } from './ui-support';

// The app as people use it: the real `batchroom ui` (browser host + core + engine + embedded sandbox) driven in
// Debian's Chromium. Photos are real JPEGs, results land on disk, every screen is photographed in both themes.

let work: string;
let rendererDir: string;
let ui: RunningUi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let photos: string[];
let outDir: string;
/** Arrival times of `batches:progress` frames on the page's WebSocket: the engine's coalescing, as delivered. */
const progressFrames: number[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-e2e-'));
  rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  photos = await makePhotos(join(work, 'shoot'), 3);
  outDir = join(work, 'out');
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: work });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    if (String(payload).includes('"event":"batches:progress"')) progressFrames.push(Date.now());
  }));
  await page.goto(ui.url);
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every screenshot must look right; the light ones are kept to compare the dark theme against. */
const lightShots = new Map<string, Shot>();
function look(shot: Shot): Shot {
  expectLooksRight(shot);
  if (shot.theme === 'light') lightShots.set(shot.name, shot);
  return shot;
}

const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name });

describe('batchroom ui in Chromium (embedded sandbox)', () => {
  it('shows the catalog in unmistakable sandbox mode', async () => {
    await expect.poll(() => page.getByRole('status', { name: /Sandbox mode/ }).count()).toBe(1);
    await page.getByRole('button', { name: /^Balance: / }).waitFor();
    // Each part is shown as it arrives (the mode and the balance may come before the catalog).
    await page.getByRole('list', { name: 'Workflows' }).getByRole('button').first().waitFor();
    expect(await page.getByRole('list', { name: 'Workflows' }).getByRole('button').count()).toBeGreaterThan(3);
    // The token left the address bar once the page had it.
    expect(page.url()).not.toContain('token=');
    look(await screenshot(page, '01-workflows'));
  });

  it('runs a batch end to end: form, picked and dropped photos, summary, progress, review, files on disk', async () => {
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    const form = page.getByRole('form', { name: 'Color Grade settings' });
    await form.waitFor();
    await form.getByRole('combobox', { name: /Look/ }).selectOption('mono');
    await form.getByRole('radio', { name: 'Aspect ratio 3:2' }).click();

    // Two through the browser's file chooser, one dropped on the window: both are uploaded to the host.
    await page.getByLabel('Add photos by path: choose files').setInputFiles(photos.slice(0, 2));
    // One after the other: uploads finish in any order, and the order of the list decides the screenshots.
    await expect.poll(() => page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem').count()).toBe(2);
    await dropFiles(page, [{ name: 'IMG_0003.jpg', base64: readFileSync(photos[2]!).toString('base64') }]);
    await expect.poll(() => page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem').count()).toBe(3);
    await page.getByRole('textbox', { name: 'Output folder' }).fill(outDir);
    look(await screenshot(page, '02-form'));

    await page.getByRole('button', { name: 'Review batch…' }).click();
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await summary.waitFor();
    expect(await summary.getByRole('table', { name: 'Output names' }).getByRole('row').count()).toBe(4);
    look(await screenshot(page, '03-summary'));
    await summary.getByRole('button', { name: 'Start 3 photos' }).click();

    const panel = page.getByRole('region', { name: 'Batch Color Grade' });
    await panel.waitFor();
    look(await screenshot(page, '04-queue-running'));
    await panel.getByText('Finished').waitFor({ timeout: 60_000 });
    expect(await panel.getByRole('progressbar', { name: 'Batch progress' }).getAttribute('aria-valuenow')).toBe('100');
    look(await screenshot(page, '05-queue-done'));

    // The bridge delivers coalesced progress: no one-second window carries more than ~10 messages.
    const busiest = Math.max(...progressFrames.map((t) => progressFrames.filter((u) => u >= t && u < t + 1000).length));
    expect(progressFrames.length).toBeGreaterThan(0);
    expect(busiest).toBeLessThanOrEqual(11);

    const saved = readdirSync(outDir).filter((f) => f.endsWith('.jpg')).sort();
    expect(saved).toHaveLength(3);
    const meta = await sharp(join(outDir, saved[0]!)).metadata();
    expect((meta.width ?? 0) / (meta.height ?? 1)).toBeCloseTo(1.5, 1);

    await panel.getByRole('button', { name: 'Review results' }).click();
    const after = page.getByRole('img', { name: /^After: / });
    await after.waitFor();
    await expect.poll(() => after.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('img', { name: /^Before: / }).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const divider = page.getByRole('slider', { name: 'Before and after divider' });
    await divider.focus();
    await page.keyboard.press('Shift+ArrowLeft');
    expect(await divider.getAttribute('aria-valuenow')).toBe('40');
    await page.getByRole('button', { name: '✓ Approve' }).click();
    await expect.poll(() => page.getByRole('button', { name: '✓ Approve' }).getAttribute('aria-pressed')).toBe('true');
    look(await screenshot(page, '06-review'));
    await page.getByRole('radio', { name: 'Side by side' }).click();
    look(await screenshot(page, '07-review-side'));
    await page.getByRole('radio', { name: 'Slider' }).click();
  });

  it('shows hot folders and settings', async () => {
    await nav('Hot folders').click();
    await page.getByRole('heading', { name: 'Hot folders', exact: true }).waitFor();
    // A first-time user sees what a hot folder is and how to add one, not an empty page.
    await page.getByText('No hot folders yet').waitFor();
    expect(await page.getByRole('button', { name: 'Add hot folder' }).count()).toBe(2);
    look(await screenshot(page, '08-hot-folders'));

    await nav('Settings').click();
    const key = page.getByRole('region', { name: 'API key' });
    await key.waitFor();
    // No key: the sandbox badge, no masked key, and a form asking for a live key.
    expect(await key.getByText('Sandbox', { exact: true }).count()).toBe(1);
    expect(await key.getByLabel('Masked API key').count()).toBe(0);
    expect(await key.getByRole('button', { name: 'Save and check key' }).isDisabled()).toBe(true);
    for (const section of ['Service', 'Output', 'Uploads', 'Shared studio ledger', 'Appearance']) {
      expect(await page.getByRole('region', { name: section }).count(), section).toBe(1);
    }
    expect(await page.getByRole('radio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
    look(await screenshot(page, '09-settings'));
  });

  it('photographs every screen in the dark theme', async () => {
    await page.getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(() => page.evaluate<string | undefined>(`document.documentElement.dataset.theme`)).toBe('dark');
    // Clicking Dark scrolled it into view, by however far the page was then: anchor the view to the end of the
    // settings instead (a section above that changes height after the click moved the picture 58 px on a slow run).
    await page.evaluate(`(() => { const main = document.querySelector('main'); main.scrollTop = main.scrollHeight; })()`);
    const shots = [look(await screenshot(page, '09-settings'))];
    for (const [view, name] of [['Workflows', '02-form'], ['Queue', '05-queue-done'], ['Review', '06-review'], ['Hot folders', '08-hot-folders']] as const) {
      await nav(view).click();
      await page.waitForTimeout(300);
      shots.push(look(await screenshot(page, name)));
    }
    // The dark theme really is dark on every screen: far below the same screen in the light theme.
    for (const dark of shots) {
      const light = lightShots.get(dark.name);
      expect(light, dark.name).toBeDefined();
      expect(dark.mean, dark.name).toBeLessThan(light!.mean - 60);
    }
    await nav('Settings').click();
    await page.getByRole('radio', { name: 'System' }).click();
  });
});
