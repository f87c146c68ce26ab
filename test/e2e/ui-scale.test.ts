import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openQueueBench, type QueueBenchPage } from './queue-bench-page';

// Issue 34 #4 in the real built renderer: the app (renderer/bench/queue-bench.html: the whole App, fed by the
// scripted bridge renderer/bench/scripted-bridge.ts) with a 100,000-item batch part-way through (every 50th item
// failed, every 3rd saved). Functional only: what the DOM holds and shows, never a time.

const ITEMS = 100_000;
const FAILED = ITEMS / 50;

interface BenchPage {
  queueBench: {
    renderedRows(): number;
    heldItems(): number;
    served(): { itemRequests: number; itemsSent: number; thumbnails: number };
    lastName(state: string | null): string;
    counts(): Record<string, number>;
  };
}

let opened: QueueBenchPage;
let page: Page;

beforeAll(async () => {
  opened = await openQueueBench('batchroom-ui-scale-', `items=${ITEMS}&mixed=1`);
  page = opened.page;
}, 240_000);

afterAll(() => opened?.close());

const bench = <T>(run: (b: BenchPage['queueBench']) => T) => page.evaluate(`(${run.toString()})(window.queueBench)`) as Promise<T>;
const table = () => page.locator('.item-scroller');
const rowNames = () => page.locator('.item-row .item-name-text').allTextContents();

describe('Queue and Review with a 100,000-item batch', () => {
  it('holds a window: a bounded number of rows in the DOM and of items in the store', async () => {
    expect(await table().getAttribute('aria-rowcount')).toBe(String(ITEMS));
    const rows = await bench((b) => b.renderedRows());
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThanOrEqual(60);
    expect(await bench((b) => b.heldItems())).toBeLessThanOrEqual(1600);
  });

  it('scrolled to the end, shows the last photo', async () => {
    await page.evaluate("{ const el = document.querySelector('.item-scroller'); el.scrollTop = el.scrollHeight; }");
    const last = await bench((b) => b.lastName(null));
    await page.locator('.item-name-text', { hasText: last }).waitFor();
    expect(await bench((b) => b.renderedRows())).toBeLessThanOrEqual(60);
  });

  it('"Failed" shows only failed rows, counted right', async () => {
    await page.locator('[role="radio"]', { hasText: /^Failed/ }).first().click();
    await expect.poll(() => table().getAttribute('aria-rowcount')).toBe(String(FAILED));
    await expect.poll(async () => {
      const states = await page.locator('.item-row:not(.item-row-loading) .item-state').allTextContents();
      return states.length > 0 && states.every((s) => s.startsWith('Failed'));
    }).toBe(true);
    const states = await page.locator('.item-row .item-state').allTextContents();
    expect(states.length).toBeLessThanOrEqual(60);
    expect(states.every((s) => s.startsWith('Failed'))).toBe(true);
    // Every 50th item from the 8th: IMG_00007, IMG_00057, …
    expect((await rowNames()).slice(0, 3)).toEqual(['IMG_00007.jpg', 'IMG_00057.jpg', 'IMG_00107.jpg']);
  });

  it('Review pages its thumbnail strip: a bounded number of thumbnails, the arrow keys step the current one', async () => {
    const asked = (await bench((b) => b.served())).thumbnails;
    await page.evaluate('window.queueBench.openReview()');
    const strip = page.getByRole('group', { name: 'Saved results' });
    await strip.locator('button[aria-current="true"]').waitFor();
    const slots = await strip.locator('button').count();
    expect(slots).toBeGreaterThan(3);
    expect(slots).toBeLessThanOrEqual(40);
    const current = strip.locator('button[aria-current="true"]');
    expect(await current.getAttribute('aria-label')).toBe('IMG_00000.jpg');
    // Keyboard review is kept: focus inside the Review section (a click on the current slot), then →.
    await current.click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => current.getAttribute('aria-label')).toBe('IMG_00003.jpg');
    // Far along the strip: only the slots now on screen exist and only they asked for thumbnails.
    await page.evaluate("{ const el = document.querySelector('.review-strip'); el.scrollLeft = el.scrollWidth / 2; }");
    const shown = () => strip.locator('button').evaluateAll((slots) => slots.map((b) => Number((b as unknown as { getAttribute(name: string): string | null }).getAttribute('aria-label')?.match(/\d+/)?.[0] ?? 0)));
    await expect.poll(async () => Math.max(...(await shown()))).toBeGreaterThan(40_000);
    expect(await strip.locator('button').count()).toBeLessThanOrEqual(40);
    const thumbnails = (await bench((b) => b.served())).thumbnails - asked;
    expect(thumbnails).toBeGreaterThan(0);
    expect(thumbnails).toBeLessThanOrEqual(120);
    const saved = (await bench((b) => b.counts())).saved!;
    const target = strip.locator('button').nth(5);
    const name = (await target.getAttribute('aria-label'))!;
    await target.click();
    await expect.poll(() => page.locator('.review-name').textContent()).toBe(name);
    expect(await page.locator('.review-count').textContent()).toMatch(new RegExp(`^[\\d,]+ of ${saved.toLocaleString('en-US')}$`));
    expect(await bench((b) => b.heldItems())).toBeLessThanOrEqual(1600 * 2);
  });
  it('after a click on a slot, → keeps stepping once the strip has scrolled that slot away', async () => {
    const strip = page.getByRole('group', { name: 'Saved results' });
    const current = strip.locator('button[aria-current="true"]');
    await current.click();
    const at = async () => Number((await page.locator('.review-count').textContent())!.split(' of ')[0]!.replace(/,/g, ''));
    const start = await at();
    for (let n = 1; n <= 40; n++) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(at, { timeout: 5000, message: `press ${n} of 40 after the click` }).toBe(start + n);
    }
  });
  it('the photo on screen stays when the strip is dragged along more than 8 pages of results', async () => {
    await page.locator('.review-name').waitFor();
    const name = await page.locator('.review-name').textContent();
    for (let k = 1; k <= 10; k++) {
      await page.evaluate(`{ const el = document.querySelector('.review-strip'); if (el) el.scrollLeft = ${k} * 200 * 76; }`);
      await page.waitForTimeout(300);
    }
    expect(await page.locator('.review-name').count()).toBe(1);
    expect(await page.locator('.review-name').textContent()).toBe(name);
  });
});
