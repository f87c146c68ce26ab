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
    // Focus without scrolling: focus() scrolls the row fully into view, and on a loaded machine that scroll's window
    // update lands after the observer below starts — rows scrolling in BELOW reuse slots (moves, by design), counted
    // as if scrolling up had moved them (CI: 14 against 9).
    await page.evaluate(`[...document.querySelectorAll('.item-row')].find((row) => row.textContent.includes('IMG_00510.jpg'))
      .querySelector('button').focus({ preventScroll: true })`);
    await frames();
    const before = await focusedLabel();
    expect(before).toMatch(/^BUTTON .*IMG_00510/);
    await page.evaluate(`{
      window.__removed = new Set(); window.__blurs = 0;
      document.addEventListener('focusout', () => { window.__blurs += 1; }, true);
      window.__observer = new MutationObserver((rs) => { for (const r of rs) for (const n of r.removedNodes) window.__removed.add(n); });
      window.__observer.observe(document.querySelector('[role="rowgroup"]'), { childList: true });
    }`);
    for (let step = 1; step <= 3; step++) {
      await page.evaluate(`document.querySelector('.item-scroller').scrollTop = 48 * ${500 - step}`);
      await frames();
    }
    // The third step's top row (497 rows down, 8 of overscan): its render is the one that drops the last bottom row.
    await page.locator('.item-name-text', { hasText: 'IMG_00489.jpg' }).waitFor();
    // A row element taken out and put back is still in the document (a move); one that left the window is not.
    const { moved, gone, blurs } = await page.evaluate(`({
      moved: [...window.__removed].filter((n) => n.isConnected).length,
      gone: [...window.__removed].filter((n) => !n.isConnected).length,
      blurs: window.__blurs,
    })`) as { moved: number; gone: number; blurs: number };
    console.log(`scrolled up 3 rows: ${moved} row elements moved, ${gone} removed, ${blurs} focusout`);
    expect(await focusedLabel()).toBe(before);
    // Three rows scrolled in at the top and three left at the bottom; none of the rows that stayed was touched. With slots
    // recycled upwards (4766cec), every row still on screen was taken out and put back (75 for 3 steps; React restores
    // focus afterwards, but the button is blurred and focused again: a screen reader announces it at every row scrolled).
    expect(blurs).toBe(0);
    expect(moved).toBe(0);
    expect(gone).toBe(3); // the three rows that left at the bottom
  });
});
