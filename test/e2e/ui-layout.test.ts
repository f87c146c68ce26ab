import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// The app in the smallest window it supports (1024×700), in the real browser host with its embedded sandbox (issue 31
// #16–#18): no console error on load (the CSP), the form keeps a usable width, its sticky footer never lies over a
// control, an empty required field is scrolled to, focused and named, typed paths are judged at once, and queue names
// are cut only when there is no room.

let work: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-layout-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: join(work, 'home') });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(ui.url);
  await page.getByRole('button', { name: /^Balance: / }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Box { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The controls of the form <main> shows now (their boxes), and the sticky footer's box. */
function formBoxes(): Promise<{ footer: Box; form: Box; controls: { name: string; box: Box }[] }> {
  return page.evaluate(`(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const form = document.querySelector('form.workflow-form');
    const footer = form.querySelector('.form-actions');
    const main = document.querySelector('main').getBoundingClientRect();
    const controls = [...form.querySelectorAll('input:not(.visually-hidden), select, textarea, button, [role=radio]')]
      .filter((el) => !footer.contains(el))
      .map((el) => ({ name: el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent.trim().slice(0, 30), box: box(el) }))
      .filter((c) => c.box.height > 0 && c.box.y < main.bottom && c.box.y + c.box.height > main.top);
    return { footer: box(footer), form: box(form), controls };
  })()`);
}

/** Scrolls <main> to `top` and lets the sticky footer settle. */
async function scrollMain(top: number): Promise<void> {
  await page.evaluate(`document.querySelector('main').scrollTop = ${top}`);
  await page.waitForTimeout(50);
}

describe('the app at 1024×700', () => {
  it('loads without a console error (the CSP allows what the page uses)', async () => {
    await page.waitForTimeout(500);
    expect(consoleErrors).toEqual([]);
  });

  it('names, scrolls to and focuses the first empty required field on "Review batch…"', async () => {
    await page.getByRole('button', { name: /^Caption & Watermark/ }).click();
    const form = page.getByRole('form', { name: 'Caption & Watermark settings' });
    await form.waitFor();
    await makePhotos(join(work, 'shoot'), 2);
    await page.getByRole('textbox', { name: 'Add photos by path' }).fill(join(work, 'shoot'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // The user is at the bottom of the form, far from the empty Caption, when they ask to continue.
    await scrollMain(100_000);
    await page.getByRole('button', { name: 'Review batch…' }).click();

    const caption = form.getByRole('textbox', { name: 'Caption' });
    await expect.poll(() => caption.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    const { footer } = await formBoxes();
    const box = (await caption.boundingBox())!;
    expect(box.y).toBeGreaterThan(50);
    expect(box.y + box.height).toBeLessThan(footer.y);
    await expect.poll(() => form.getByRole('alert').allTextContents()).toContainEqual(expect.stringContaining('Caption'));
  });

  it('keeps the form wide enough and its footer on one line, never over a control', async () => {
    const { form } = await formBoxes();
    process.stdout.write(`form width at 1024×700: ${form.width.toFixed(0)} px\n`);
    expect(form.width).toBeGreaterThanOrEqual(560);
    const scrollHeight = await page.evaluate(`document.querySelector('main').scrollHeight`) as number;
    const hidden: string[] = [];
    let footerHeight = 0;
    for (let top = 0; top < scrollHeight; top += 150) {
      await scrollMain(top);
      const boxes = await formBoxes();
      footerHeight = Math.max(footerHeight, boxes.footer.height);
      for (const c of boxes.controls) if (overlaps(c.box, boxes.footer)) hidden.push(`${c.name} at scrollTop ${top}`);
    }
    process.stdout.write(`footer height: ${footerHeight.toFixed(0)} px; controls under it: ${hidden.length}\n`);
    // A control may pass under the footer while scrolling, but one that is under it at the very bottom can never
    // be reached; and wherever the page stands, the footer covers controls only by the band it needs for one line.
    expect(footerHeight).toBeLessThanOrEqual(72);
    await scrollMain(100_000);
    const atEnd = await formBoxes();
    expect(atEnd.controls.filter((c) => overlaps(c.box, atEnd.footer)).map((c) => c.name)).toEqual([]);
  });

  it('marks typed paths that do not exist or are not photos at once, and counts only photos and folders', async () => {
    writeFileSync(join(work, 'notes.txt'), 'not a photo');
    mkdirSync(join(work, 'empty-folder'));
    const input = page.getByRole('textbox', { name: 'Add photos by path' });
    for (const typed of [join(work, 'missing', 'IMG_9999.jpg'), join(work, 'notes.txt')]) {
      await input.fill(typed);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    }
    const list = page.getByRole('list', { name: 'Photos to process' });
    await expect.poll(() => list.getByRole('listitem').filter({ hasText: 'IMG_9999.jpg' }).textContent()).toMatch(/not found/i);
    await expect.poll(() => list.getByRole('listitem').filter({ hasText: 'notes.txt' }).textContent()).toMatch(/not a photo/i);
    await expect.poll(() => list.getByRole('listitem').filter({ hasText: 'shoot' }).textContent()).toMatch(/folder/i);
  });
});

describe('the queue at 1024×700', () => {
  it('shows a photo name in full where the row has room for it', async () => {
    const shoot = join(work, 'long-names');
    const paths = await makePhotos(shoot, 1, 'wedding_ceremony_');
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('textbox', { name: 'Add photos by path' }).fill(paths[0]!);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('textbox', { name: 'Caption' }).fill('Hello');
    await page.getByRole('button', { name: 'Review batch…' }).click();
    await page.getByRole('dialog', { name: 'Batch summary' }).getByRole('button', { name: /^Start/ }).click();
    const name = page.locator('.item-name-text').first();
    await name.waitFor();
    const fit = await name.evaluate((el) => {
      // The node tsconfig has no DOM lib: the element's few properties read here, typed by hand.
      const e = el as unknown as { textContent: string; scrollWidth: number; clientWidth: number };
      return { text: e.textContent, scroll: e.scrollWidth, client: e.clientWidth };
    });
    process.stdout.write(`queue name "${fit.text}": ${fit.client} px shown of ${fit.scroll} px\n`);
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  });
});

describe('review at 2× and 4×', () => {
  it('keeps the before/after labels and the divider at screen size while the photo zooms', async () => {
    const row = page.getByRole('row', { name: /wedding_ceremony_0001/ });
    await row.getByRole('button', { name: /^Review / }).click({ timeout: 60_000 });
    const knob = page.locator('.compare-knob');
    await knob.waitFor();
    await page.locator('.compare-slider img').first().waitFor();
    const measure = () => page.evaluate(`(() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      const frame = box('.compare-slider'), handle = box('.compare-handle');
      return { knob: box('.compare-knob').width, tag: box('.compare-tag-before').height, line: handle.width,
        photo: box('.compare-slider img').width, handleAt: (handle.left + handle.width / 2 - frame.left) / frame.width };
    })()`) as Promise<{ knob: number; tag: number; line: number; photo: number; handleAt: number }>;
    const at1 = await measure();
    const zoom = page.getByRole('radiogroup', { name: 'Zoom' });
    for (const level of ['2×', '4×']) {
      await zoom.getByRole('radio', { name: level }).click();
      const now = await measure();
      process.stdout.write(`zoom ${level}: photo ${now.photo.toFixed(0)} px (1×: ${at1.photo.toFixed(0)}), knob ${now.knob.toFixed(1)} px, tag ${now.tag.toFixed(1)} px, line ${now.line.toFixed(1)} px\n`);
      expect(now.photo).toBeGreaterThan(at1.photo * 1.5);
      expect(now.knob).toBeCloseTo(at1.knob, 0);
      expect(now.tag).toBeCloseTo(at1.tag, 0);
      expect(now.line).toBeCloseTo(at1.line, 0);
      // The divider still sits where the clip is (the middle of the photo by default).
      expect(now.handleAt).toBeCloseTo(at1.handleAt, 2);
    }
  });
});
