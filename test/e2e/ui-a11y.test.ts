import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../main/sandbox/index';
import { auditScreen, type AxeViolation } from './a11y-support';
import { buildRenderer, launchChromium, makePhotos, startUi, type RunningUi } from './ui-support';

// Every main screen of the real app, audited as a user with assistive technology and a small window would meet
// it: axe-core in the light and the dark theme (0 serious or critical violations), exactly one <h1>, and the
// layout at 1440×900 and 1024×700 (one scroll container, nothing cut off or out of reach).

const KEY = 'sk_test_a11y_abcdefgh12345678';

let work: string;
let sandbox: RunningSandbox;
let ui: RunningUi;
let browser: Browser;
let page: Page;
/** Everything axe found on each screen and theme, printed at the end: the numbers behind the assertions. */
const report: { screen: string; theme: string; violations: AxeViolation[] }[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-a11y-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  // Slow executions keep the batch running long enough to audit the running state in both themes.
  sandbox = await startSandbox({ useEnv: false, executionDurationMs: 9_000, apiKey: KEY, seed: 3 });
  // A settings file from an older version: Settings shows its warning callout, which must be readable too.
  mkdirSync(join(work, 'state'), { recursive: true });
  writeFileSync(join(work, 'state', 'settings.json'), JSON.stringify({ oldLayoutOption: true }));
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: join(work, 'home'), globalArgs: ['--service-url', sandbox.url], env: { BATCHROOM_API_KEY: KEY } });
  browser = await launchChromium();
  // The page's CSP (rightly) refuses inline scripts; the test context lets axe's script tag in, nothing else changes.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', bypassCSP: true });
  page = await context.newPage();
  await page.goto(ui.url);
  await page.getByRole('button', { name: /^Balance: / }).waitFor();
});

afterAll(async () => {
  const rows = report.map((r) => `${r.screen} (${r.theme}): ${r.violations.map((v) => `${v.id}/${v.impact}×${v.nodes}`).join(', ') || 'none'}`);
  process.stdout.write(`axe-core results\n  ${rows.join('\n  ')}\n`);
  await browser?.close();
  await ui?.stop();
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Audits the screen and records axe's findings; a soft failure, so one run reports every screen's problems. */
async function audit(screen: string): Promise<void> {
  const result = await auditScreen(page, screen);
  report.push(...result.axe.map((a) => ({ screen, ...a })));
  expect.soft(result.problems, `${screen}:\n${result.problems.join('\n')}`).toEqual([]);
}

const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name });

describe('accessibility and layout of every main screen', () => {
  it('catalog', async () => {
    await audit('catalog');
  });

  it('workflow form and the cost summary', async () => {
    await page.getByRole('button', { name: /^Color Grade/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    await makePhotos(join(work, 'shoot'), 3);
    await page.getByRole('textbox', { name: 'Add photos by path' }).fill(join(work, 'shoot'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('textbox', { name: 'Output folder' }).fill(join(work, 'out'));
    await audit('workflow form');

    await page.getByRole('button', { name: 'Review batch…' }).click();
    await page.getByRole('dialog', { name: 'Batch summary' }).getByRole('button', { name: 'Start 3 photos' }).waitFor();
    await audit('cost summary');
  });

  it('queue, running and finished', async () => {
    await page.getByRole('dialog', { name: 'Batch summary' }).getByRole('button', { name: 'Start 3 photos' }).click();
    const panel = page.getByRole('region', { name: 'Batch Color Grade' });
    await panel.getByText('Running').first().waitFor();
    await audit('queue running');
    await panel.getByRole('button', { name: 'Cancel batch' }).click();
    await page.getByRole('dialog', { name: 'Cancel this batch?' }).waitFor();
    await audit('cancel confirmation');
    await page.getByRole('dialog', { name: 'Cancel this batch?' }).getByRole('button', { name: 'Keep running' }).click();
    await panel.getByText('Finished').waitFor({ timeout: 60_000 });
    await audit('queue finished');
  });

  it('review', async () => {
    await page.getByRole('region', { name: 'Batch Color Grade' }).getByRole('button', { name: 'Review results' }).click();
    await page.getByRole('img', { name: /^After: / }).waitFor();
    await audit('review');
    await page.getByRole('radio', { name: 'Side by side' }).click();
    await page.locator('figcaption', { hasText: 'Before' }).waitFor();
    await audit('review side by side');
  });

  it('hot folders and the hot-folder editor', async () => {
    await nav('Hot folders').click();
    await page.getByText('No hot folders yet').waitFor();
    await audit('hot folders');
    await page.getByRole('button', { name: 'Add hot folder' }).first().click();
    await page.getByRole('dialog', { name: 'New hot folder' }).waitFor();
    await audit('hot-folder editor');
    await page.keyboard.press('Escape');
  });

  it('settings', async () => {
    await nav('Settings').click();
    await page.getByRole('region', { name: 'API key' }).waitFor();
    await page.getByText(/ignored unknown key "oldLayoutOption"/).waitFor();
    await audit('settings');
  });
});
