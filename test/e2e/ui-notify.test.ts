import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// Issue 32 #6 in the real browser host: the core's app:attention crosses the WebSocket and the page, allowed to notify,
// shows a Web Notification when the batch is done; its click opens Review. Chromium's own Notification is used, only
// watched (each one created is recorded) so the test can read it and click it. A second page in a German browser
// gets the same app:attention and says it in German (issue 33 #2: the core sends message keys, the page words them).

let work: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;
/** The same app open in a German browser (its OS language): the one app:attention, said in German there. */
let germanPage: Page;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-notify-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: work });
  browser = await launchChromium();
  page = await watchedPage('en-US');
  germanPage = await watchedPage('de-DE');
});

async function watchedPage(locale: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale });
  await context.grantPermissions(['notifications'], { origin: new URL(ui.url).origin });
  // Page code as text: this file is type-checked without the DOM library (tsconfig.node.json).
  await context.addInitScript({
    content: `
      const Real = window.Notification;
      const shown = [];
      window.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          shown.push({ title, body: options && options.body, notification: this });
        }
      };
      window.__shown = shown;
    `,
  });
  const opened = await context.newPage();
  await opened.goto(ui.url);
  return opened;
}

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const shownOn = (on: Page) => on.evaluate<Array<{ title: string; body?: string }>>('window.__shown.map(({ title, body }) => ({ title, body }))');
const shown = () => shownOn(page);

describe('a Web Notification when a batch is done (browser host)', () => {
  it('is shown once with what was saved and spent, and its click opens Review', async () => {
    const shoot = join(work, 'shoot');
    mkdirSync(shoot);
    const photos = await makePhotos(shoot, 2);
    await page.getByRole('list', { name: 'Workflows' }).getByRole('button').first().waitFor();
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    await page.getByLabel('Add photos by path: choose files').setInputFiles(photos);
    await page.getByRole('textbox', { name: 'Output folder' }).fill(join(work, 'out'));
    await page.getByRole('button', { name: 'Review batch…' }).click();
    await page.getByRole('dialog', { name: 'Batch summary' }).getByRole('button', { name: 'Start 2 photos' }).click();
    await page.getByRole('region', { name: 'Batch Color Grade' }).getByText('Finished').waitFor({ timeout: 60_000 });

    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ title: 'Batch done — Color Grade', body: '2 saved · 2 free test credits' }]);
    await expect.poll(() => shownOn(germanPage), { timeout: 10_000 }).toEqual([{ title: 'Stapel fertig – Color Grade', body: '2 gesichert · 2 kostenlose Test-Credits' }]);
    expect(await page.getByRole('img', { name: /^After: / }).count()).toBe(0); // the queue, not Review yet
    await page.evaluate("window.__shown[0].notification.onclick(new Event('click'))");
    await page.getByRole('img', { name: /^After: / }).waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    expect(await shown()).toHaveLength(1);
  });
});
