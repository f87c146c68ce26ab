import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditScreen } from './a11y-support';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// Issue 32 #4 in the real browser host: a batch for a job and a client, run against the sandbox, then the History
// screen's report from the core (reports:byGroup over the journal), per job and per client, and its CSV downloaded.

let work: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-history-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: work });
  browser = await launchChromium();
  // bypassCSP: only so axe's script tag gets in (as in ui-a11y.test.ts); nothing else changes.
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', acceptDownloads: true, bypassCSP: true })).newPage();
  await page.goto(ui.url);
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The cells of each row of a table, header and totals included. */
type Cells = { textContent: string | null }[];
const rows = (page: Page, name: string) => page.getByRole('table', { name }).evaluate(
  // Typed by hand: this file is type-checked without the DOM library (tsconfig.node.json).
  (table) => Array.from((table as unknown as { rows: ArrayLike<{ cells: ArrayLike<Cells[number]> }> }).rows, (row) => Array.from(row.cells, (cell) => cell.textContent)),
);

describe('History after a real batch (browser host)', () => {
  it('shows the batch under its job and its client with the totals, and downloads the same report as CSV', async () => {
    const shoot = join(work, 'shoot');
    mkdirSync(shoot);
    const photos = await makePhotos(shoot, 2);
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    await page.getByLabel('Add photos by path: choose files').setInputFiles(photos);
    await page.getByRole('textbox', { name: 'Output folder' }).fill(join(work, 'out'));
    await page.getByRole('combobox', { name: 'Job' }).fill('Smith wedding');
    await page.getByRole('combobox', { name: 'Client' }).fill('Smith');
    await page.getByRole('button', { name: 'Review batch…' }).click();
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await summary.getByTestId('job-client').getByText('Smith wedding').waitFor();
    await summary.getByRole('button', { name: 'Start 2 photos' }).click();
    await page.getByRole('region', { name: 'Batch Color Grade' }).getByText('Finished').waitFor({ timeout: 60_000 });

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'History' }).click();
    await page.getByRole('table', { name: 'Credits per job' }).waitFor();
    // Color Grade costs 1 credit a photo in the sandbox: 2 saved, 2 charged, nothing lost.
    expect(await rows(page, 'Credits per job')).toEqual([
      ['Job', 'Batches', 'Photos saved', 'Failed', 'Charged, no result', 'Credits'],
      ['Smith wedding', '1', '2', '—', '—', '2 credits'],
      ['Total', '1', '2', '—', '—', '2 credits'],
    ]);
    await page.getByRole('radio', { name: 'Per client' }).click();
    await page.getByRole('table', { name: 'Credits per client' }).waitFor();
    expect((await rows(page, 'Credits per client'))[1]).toEqual(['Smith', '1', '2', '—', '—', '2 credits']);
    // The balance the app read before the batch and after it fell by what the batch was charged: nothing else spent.
    // (Read again until the app's read after the batch is in: the page asks for it when the batch finishes.)
    await expect.poll(async () => {
      await page.getByRole('radio', { name: 'Per client' }).click();
      return page.getByTestId('history-balance').textContent();
    }, { timeout: 10_000 }).toMatch(/\(-2 credits\) · charged to these batches 2 credits · they add up\./);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^batchroom-report-by-client-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^group_by,group,from,to,batches,photos_saved/);
    expect(csv[1]).toMatch(/^client,Smith,\S+,\S+,1,2,0,2,0,0$/);

    // As every main screen (ui-a11y.test.ts): one <h1>, fits 1440×900 and 1024×700, no serious axe finding in either theme.
    expect((await auditScreen(page, 'history')).problems).toEqual([]);
  });
});
