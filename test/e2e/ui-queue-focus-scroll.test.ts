import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openQueueBench, type QueueBenchPage } from './queue-bench-page';

// Review of 4766cec (queue rows keyed by slot): scrolling UP gives the row scrolling in at the top the slot of the
// row that left at the bottom, and React keeps row order by moving every other row's element. In Chromium moving an
// element blurs the focused button inside it (focusout to <body>); React focuses it again after the commit. So at every
// row scrolled up, the button a keyboard / screen-reader user is on, in a row that never left the screen, is blurred
// and re-focused, and the whole window is re-inserted (75 rows for 3 steps; 9 before 4766cec).

let bench: QueueBenchPage;
let page: Page;

beforeAll(async () => {
  bench = await openQueueBench('batchroom-ui-focus-', 'items=2000&mixed=1');
  page = bench.page;
}, 240_000);

afterAll(() => bench?.close());

const frames = () => page.evaluate('new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))');
const focusedLabel = () => page.evaluate('document.activeElement?.tagName + " " + (document.activeElement?.getAttribute("aria-label") ?? "")') as Promise<string>;

describe('Queue: scrolling up with focus on a row button', () => {
  it('moves only the rows that scroll in and never blurs the focused button of a row that stays', async () => {
    await page.evaluate("document.querySelector('.item-scroller').scrollTop = 48 * 500");
    await page.locator('.item-name-text', { hasText: 'IMG_00510.jpg' }).waitFor();
    await frames();
    await page.locator('.item-row', { hasText: 'IMG_00510.jpg' }).locator('button').first().focus();
    const before = await focusedLabel();
    expect(before).toMatch(/^BUTTON .*IMG_00510/);
    await page.evaluate(`{
      window.__moves = 0; window.__blurs = 0;
      document.addEventListener('focusout', () => { window.__blurs += 1; }, true);
      window.__observer = new MutationObserver((rs) => { for (const r of rs) window.__moves += r.removedNodes.length; });
      window.__observer.observe(document.querySelector('[role="rowgroup"]'), { childList: true });
    }`);
    for (let step = 1; step <= 3; step++) {
      await page.evaluate(`document.querySelector('.item-scroller').scrollTop = 48 * ${500 - step}`);
      await frames();
    }
    await page.locator('.item-name-text', { hasText: 'IMG_00497.jpg' }).waitFor();
    const { moves, blurs } = await page.evaluate('({ moves: window.__moves, blurs: window.__blurs })') as { moves: number; blurs: number };
    console.log(`scrolled up 3 rows: ${moves} row elements removed/moved, ${blurs} focusout`);
    expect(await focusedLabel()).toBe(before);
    // Three rows scrolled in at the top and three left at the bottom: a few elements removed (9 before 4766cec), focus untouched. With
    // slots, every row still on screen is taken out and put back (React restores focus afterwards, but the button is
    // blurred and focused again: a screen reader announces it again, at every row scrolled).
    expect(blurs).toBe(0);
    expect(moves).toBeLessThanOrEqual(12);
  });
});
