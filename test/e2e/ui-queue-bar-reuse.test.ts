import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openQueueBench, type QueueBenchPage } from './queue-bench-page';

// Review of 4766cec (queue rows keyed by slot): a slot scrolled to another row keeps its elements, and the progress bar
// moves by a 300 ms transform transition (.progress-fill-scaled). The reused bar therefore animates from the photo that
// scrolled out's progress to the new photo's: for ~300 ms a row shows another photo's progress.

let bench: QueueBenchPage;
let page: Page;

beforeAll(async () => {
  bench = await openQueueBench('batchroom-ui-bar-', 'items=200');
  page = bench.page;
}, 240_000);

afterAll(() => bench?.close());

const frames = () => page.evaluate('new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))');

describe('Queue: a progress bar on a row scrolled in', () => {
  it("shows the row's own photo's progress from its first frame, not the previous photo's", async () => {
    // 200 items stepped in order, 50 a message: stopped after 250 steps (5 messages of 50), rows 0..49 are at 40 %, the rest at
    // 20 % (all in flight, bars shown).
    await page.evaluate('window.queueBench.startProgress(4, 50)');
    await expect.poll(() => page.evaluate('window.queueBench.stats().itemUpdates') as Promise<number>, { interval: 5, timeout: 20_000 }).toBeGreaterThanOrEqual(250);
    await page.evaluate('window.queueBench.stopProgress()');
    await page.waitForTimeout(800); // every transition over
    // From the top (40 % rows) one jump to row 120 (20 % rows: a scrollbar drag, End, Page Down at speed): every slot
    // shows another photo, in the same DOM place, and its bar animates from the previous photo's 40 %.
    const wrong: string[] = [];
    for (const row of [120]) {
      await page.evaluate(`document.querySelector('.item-scroller').scrollTop = 48 * ${row}`);
      await frames();
      wrong.push(...await page.evaluate(`[...document.querySelectorAll('.item-row [role="progressbar"]')].flatMap((bar) => {
        const want = Number(bar.getAttribute('aria-valuenow')) / 100;
        // What is painted (transform or width alike): the fill's box against the bar's.
        const shown = bar.querySelector('.progress-fill').getBoundingClientRect().width / bar.getBoundingClientRect().width;
        return Math.abs(shown - want) > 0.02 ? [bar.getAttribute('aria-label') + ': shows ' + shown.toFixed(2) + ', is ' + want] : [];
      })`) as string[]);
    }
    expect(wrong).toEqual([]);
  });
});
