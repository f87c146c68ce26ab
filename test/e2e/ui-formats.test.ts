import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, launchChromium, startUi, type RunningUi } from './ui-support';

// Issue 31 #12 in the real browser: a TIFF (before and after, the result being a TIFF too) and a HEIC (before) were
// broken images in Review and the HEIC had no queue thumbnail, because Chromium cannot draw either. The page now
// gets a rendition; every picture must have decoded (naturalWidth > 0).

const HEIC = fileURLToPath(new URL('../fixtures/images/tiny.heic', import.meta.url));

let work: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-formats-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: work });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage();
  await page.goto(ui.url);
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const naturalWidth = (image: Locator) => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);

describe('pictures a browser cannot draw itself', () => {
  it('TIFF before and after, HEIC before and its queue thumbnail all decode in Chromium', async () => {
    const shoot = join(work, 'shoot');
    mkdirSync(shoot);
    const tiff = join(shoot, 'SCAN_0001.tif');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="480" height="320" fill="#3a7"/><circle cx="200" cy="160" r="90" fill="#fe8"/></svg>';
    await sharp(Buffer.from(svg)).tiff({ compression: 'lzw' }).toFile(tiff);
    const heic = join(shoot, 'IMG_0002.heic');
    copyFileSync(HEIC, heic);
    const out = join(work, 'out');

    await page.getByRole('list', { name: 'Workflows' }).getByRole('button').first().waitFor();
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    await page.getByLabel('Add photos by path: choose files').setInputFiles([tiff, heic]);
    const rows = page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('textbox', { name: 'Output folder' }).fill(out);
    await page.getByRole('button', { name: 'Review batch…' }).click();
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await summary.getByRole('button', { name: 'Start 2 photos' }).click();
    const panel = page.getByRole('region', { name: 'Batch Color Grade' });
    await panel.getByText('Finished').waitFor({ timeout: 60_000 });
    expect(readdirSync(out).filter((f) => /\.tiff?$/i.test(f))).toHaveLength(1);

    // The queue's thumbnails: one per photo, HEIC included.
    const thumbnails = panel.locator('img');
    await expect.poll(() => thumbnails.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    for (const image of await thumbnails.all()) await expect.poll(() => naturalWidth(image)).toBeGreaterThan(0);

    await panel.getByRole('button', { name: 'Review results' }).click();
    for (let n = 0; n < 2; n++) {
      const after = page.getByRole('img', { name: /^After: / });
      const before = page.getByRole('img', { name: /^Before: / });
      await after.waitFor();
      const name = await before.getAttribute('aria-label') ?? await before.getAttribute('alt');
      await expect.poll(() => naturalWidth(before), { message: `before of ${name}` }).toBeGreaterThan(0);
      await expect.poll(() => naturalWidth(after), { message: `after of ${name}` }).toBeGreaterThan(0);
      if (n === 0) await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(200);
    }
  });
});

describe('photos added in the browser (issue 31 #13)', () => {
  it('their batch ended: each staged copy is now a screen-size review copy, and "Download all" is a zip of the results', async () => {
    const uploads = join(work, 'state', 'uploads');
    // The photos (not the folder's `.review-copies` list, which says which of them are review copies now).
    const staged = () => readdirSync(uploads).flatMap((folder) => readdirSync(join(uploads, folder)).filter((name) => !name.startsWith('.')).map((name) => join(uploads, folder, name)));
    expect(staged()).toHaveLength(2);
    await expect.poll(async () => (await Promise.all(staged().map(async (path) => (await sharp(path).metadata()).format))).join(), { timeout: 10_000 }).toBe('webp,webp');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Queue' }).click();
    const link = page.getByRole('region', { name: 'Batch Color Grade' }).getByRole('link', { name: 'Download all' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/download\/[\w-]+\.zip$/);
    const zip = await page.evaluate(`fetch(${JSON.stringify(href)}).then(async (r) => [r.status, r.headers.get('content-type'), [...new Uint8Array(await r.arrayBuffer())].length])`);
    expect(zip).toEqual([200, 'application/zip', expect.any(Number)]);
    const saved = readdirSync(join(work, 'out'));
    expect((zip as number[])[2]).toBeGreaterThan(saved.length * 30); // at least a header per result
  });

  it('without an output folder, a batch of uploaded photos is refused with a message asking for one', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workflows' }).click();
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    const again = join(work, 'again.tif');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#369' } }).tiff({ compression: 'lzw' }).toFile(again);
    await page.getByLabel('Add photos by path: choose files').setInputFiles([again]);
    await expect.poll(() => page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(1);
    await page.getByRole('textbox', { name: 'Output folder' }).fill('');
    await page.getByRole('button', { name: 'Review batch…' }).click();
    try {
      await page.getByText(/need an output folder/).first().waitFor({ timeout: 15_000 });
    } catch (error) {
      throw new Error(`${String(error)}\n${await page.locator('body').innerText()}\n${ui.stderr()}`);
    }
    expect(await page.getByRole('dialog', { name: 'Batch summary' }).count()).toBe(0);
    expect(readdirSync(join(work, 'state', 'uploads'))).toHaveLength(3); // the new one staged, waiting for its batch
  });
});
