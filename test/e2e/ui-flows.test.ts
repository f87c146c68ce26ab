import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../main/sandbox/index';
import { auditScreen } from './a11y-support';
import { expectLooksRight } from './screenshots';
import { buildRenderer, confirmWithTerminalCode, launchChromium, makePhotos, screenshot, startUi, type RunningUi } from './ui-support';

const look = expectLooksRight;

// The other journeys through the real app: a hot folder from creation to a saved result, the insufficient-credits
// error before anything is spent, and the API key entered in Settings (real gnome-keyring in a private D-Bus).

const KEY = 'sk_test_uiflows_abcdefgh12345678';
const hasKeyring = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon']).status === 0;

let work: string;
let rendererDir: string;
let sandbox: RunningSandbox;
let browser: Browser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-flows-'));
  rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  sandbox = await startSandbox({ useEnv: false, executionDurationMs: 200, apiKey: KEY, seed: 1 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function openPage(ui: RunningUi, ready: (page: Page) => Promise<void> = (p) => p.getByRole('button', { name: /^Balance: / }).waitFor()): Promise<Page> {
  // bypassCSP: the page's CSP refuses inline scripts, and axe-core goes in as a script tag.
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light', bypassCSP: true });
  const page = await context.newPage();
  await page.goto(ui.url);
  try {
    await ready(page);
  } catch (error) {
    await page.screenshot({ path: join(work, 'open-failed.png') });
    throw new Error(`${String(error)}\n${ui.stderr()}\n${await page.locator('body').innerText()}`);
  }
  return page;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name });

describe('live service (the sandbox as a separate service, key from the environment)', () => {
  let ui: RunningUi;
  let page: Page;
  beforeAll(async () => {
    ui = await startUi({ rendererDir, stateDir: join(work, 'live-state'), home: join(work, 'live-home'), globalArgs: ['--service-url', sandbox.url], env: { BATCHROOM_API_KEY: KEY } });
    page = await openPage(ui);
  });
  afterAll(async () => {
    await page?.context().close();
    await ui?.stop();
  });

  it('watches a hot folder: dry run first, then each new photo is processed once', async () => {
    const watch = join(work, 'watch');
    const hotOut = join(work, 'hot-out');
    const [existing] = await makePhotos(watch, 1, 'OLD_');
    const [incoming] = await makePhotos(join(work, 'incoming'), 1, 'NEW_');
    expect(await page.getByRole('status', { name: /Test key: no real credits/ }).count()).toBe(1);

    await nav(page, 'Hot folders').click();
    await page.getByRole('button', { name: 'Add hot folder' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New hot folder' });
    await dialog.getByRole('textbox', { name: 'Folder to watch' }).fill(watch);
    await dialog.getByRole('combobox', { name: 'Workflow' }).selectOption('color-grade');
    await dialog.getByRole('combobox', { name: /Look/ }).selectOption('warm');
    await dialog.getByRole('textbox', { name: 'Save results to' }).fill(hotOut);
    look(await screenshot(page, '10-hot-folder-editor'));
    await dialog.getByRole('button', { name: 'Save hot folder' }).click();

    const card = page.getByRole('article', { name: 'Hot folder watch' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Dry run watch' }).click();
    const report = card.getByRole('region', { name: 'Dry run of watch' });
    await report.waitFor();
    expect(await report.innerText()).toContain('OLD_0001.jpg');

    // A controlled switch: it turns on when main answers, so click and wait for the state rather than check().
    await card.getByRole('switch', { name: 'Watch watch' }).click();
    await expect.poll(() => card.getByRole('switch', { name: 'Watch watch' }).isChecked(), { timeout: 30_000 }).toBe(true);
    copyFileSync(incoming!, join(watch, 'NEW_0001.jpg'));
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText(/NEW_0001/).first().waitFor({ timeout: 60_000 });
    await expect.poll(() => (existsSync(hotOut) ? readdirSync(hotOut).filter((f) => f.startsWith('NEW_0001')) : []), { timeout: 60_000 }).toHaveLength(1);
    // The existing photo waited for review (dry-run policy): nothing was spent on it.
    expect(readdirSync(hotOut).some((f) => f.startsWith('OLD_'))).toBe(false);
    expect(existing).toBeDefined();
    look(await screenshot(page, '11-hot-folder-active'));
    // An armed card with its counters and the activity list meets the bar of the other screens (ui-a11y.test.ts).
    const audit = await auditScreen(page, 'hot folder active');
    expect(audit.problems, audit.problems.join('\n')).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 860 });
    await card.getByRole('switch', { name: 'Watch watch' }).click();
    await expect.poll(() => card.getByRole('switch', { name: 'Watch watch' }).isChecked()).toBe(false);
  });

  it('stops an unaffordable batch at the summary, in plain words, before anything is spent', async () => {
    const response = await fetch(new URL('/sandbox/credits', sandbox.url), {
      method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ credits: 2 }),
    });
    expect(response.status).toBe(200);
    const photos = await makePhotos(join(work, 'pricey'), 3);
    await page.reload();
    await page.getByRole('button', { name: 'Balance: 2 credits, running low' }).waitFor();

    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    const form = page.getByRole('form', { name: 'Color Grade settings' });
    await form.waitFor();
    await page.getByRole('textbox', { name: 'Add photos by path' }).fill(join(work, 'pricey'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('textbox', { name: 'Output folder' }).fill(join(work, 'pricey-out'));
    await page.getByRole('button', { name: 'Review batch…' }).click();
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await summary.getByText(/Not enough credits/).waitFor();
    expect(await summary.getByRole('button', { name: 'Start 3 photos' }).isDisabled()).toBe(true);
    look(await screenshot(page, '12-insufficient-credits'));
    const audit = await auditScreen(page, 'summary, not enough credits');
    expect(audit.problems, audit.problems.join('\n')).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 860 });
    expect(photos).toHaveLength(3);
    expect(existsSync(join(work, 'pricey-out')) ? readdirSync(join(work, 'pricey-out')) : []).toEqual([]);
  });
});

describe('Start pressed twice while the first batch runs (issue 29)', () => {
  let slow: RunningSandbox;
  let ui: RunningUi;
  let page: Page;
  beforeAll(async () => {
    slow = await startSandbox({ useEnv: false, executionDurationMs: 4000, apiKey: KEY, seed: 2 });
    ui = await startUi({ rendererDir, stateDir: join(work, 'twice-state'), home: join(work, 'twice-home'), globalArgs: ['--service-url', slow.url], env: { BATCHROOM_API_KEY: KEY } });
    page = await openPage(ui);
  });
  afterAll(async () => {
    await page?.context().close();
    await ui?.stop();
    await slow?.close();
  });

  /** The Color Grade form with the folder of photos and the output folder, reviewed: the summary dialog. */
  async function review(folder: string, out: string) {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workflows' }).click();
    await page.getByRole('button', { name: /^Color Grade,/ }).click();
    await page.getByRole('form', { name: 'Color Grade settings' }).waitFor();
    const added = page.getByRole('list', { name: 'Photos to process' }).getByRole('listitem');
    if ((await added.count()) === 0) {
      await page.getByRole('textbox', { name: 'Add photos by path' }).fill(folder);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    }
    await page.getByRole('textbox', { name: 'Output folder' }).fill(out);
    await page.getByRole('button', { name: 'Review batch…' }).click();
    const summary = page.getByRole('dialog', { name: 'Batch summary' });
    await summary.waitFor();
    return summary;
  }

  it('the second Start says the photos are already running, pays nothing and writes no copies', async () => {
    const folder = join(work, 'twice');
    const out = join(work, 'twice-out');
    await makePhotos(folder, 6);
    const first = await review(folder, out);
    await first.getByRole('button', { name: 'Start 6 photos' }).click();
    await page.getByRole('region', { name: 'Batch Color Grade' }).first().waitFor();

    const second = await review(folder, out);
    await second.getByTestId('already-running').getByText(/6 already (running|paid for) in another batch: paid once, 0 credits/).waitFor();
    look(await screenshot(page, '13-already-running'));
    await second.getByRole('button', { name: 'Start 6 photos' }).click();

    // The second batch (the one shown) finishes with the first one's results.
    await page.getByRole('region', { name: 'Batch Color Grade' }).getByText('Finished').waitFor({ timeout: 90_000 });
    await expect.poll(() => (existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.jpg')).length : 0), { timeout: 30_000 }).toBe(6);
    expect(slow.stats().executionsCreated).toBe(6);
    const saved = readdirSync(out).filter((f) => f.endsWith('.jpg'));
    expect(saved).toHaveLength(6);
    expect(saved.some((f) => f.includes('(2)'))).toBe(false);
  });
});

describe.skipIf(!hasKeyring && !process.env.CI)('API key entry (real gnome-keyring)', () => {
  let ui: RunningUi;
  let page: Page;
  beforeAll(async () => {
    const home = join(work, 'key-home');
    mkdirSync(home, { recursive: true });
    ui = await startUi({ rendererDir, stateDir: join(work, 'key-state'), home, keyring: true });
    page = await openPage(ui);
  });
  afterAll(async () => {
    await page?.context().close();
    await ui?.stop();
  });

  it('refuses a wrong key in plain words, accepts the right one, and shows it back only masked', async () => {
    expect(await page.getByRole('status', { name: /Sandbox mode/ }).count()).toBe(1);
    await nav(page, 'Settings').click();
    // The user's service: its URL first (saved on Enter), then its key.
    const url = page.getByRole('textbox', { name: 'Service URL' });
    await url.fill(sandbox.url);
    await url.press('Enter');
    // A new service origin: main asks first, with a code printed on the terminal of `batchroom ui` (issue 30 #1).
    await confirmWithTerminalCode(page, ui);
    await expect.poll(() => page.getByRole('region', { name: 'API key' }).innerText()).toContain(sandbox.url);
    look(await screenshot(page, '13-no-key'));
    const keyField = page.getByLabel('Enter your API key');
    await keyField.fill('sk_live_notasandboxkey_00009999');
    await page.getByRole('button', { name: 'Save and check key' }).click();
    const keyPanel = page.getByRole('region', { name: 'API key' });
    await keyPanel.getByRole('alert').waitFor();
    expect(await keyPanel.getByRole('alert').innerText()).toMatch(/did not accept the API key/);
    look(await screenshot(page, '14-key-rejected'));
    const audit = await auditScreen(page, 'key rejected');
    expect(audit.problems, audit.problems.join('\n')).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 860 });

    await page.getByLabel('Enter your API key').fill(KEY);
    await page.getByRole('button', { name: 'Save and check key' }).click();
    await keyPanel.getByText(/Key saved and accepted/).waitFor({ timeout: 30_000 });
    const masked = await keyPanel.getByLabel('Masked API key').innerText();
    expect(masked).toMatch(/^sk_test_…/);
    expect(await page.content()).not.toContain(KEY);
    await page.getByRole('status', { name: /Test key: no real credits/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /^Balance: / }).waitFor({ timeout: 30_000 });
    look(await screenshot(page, '15-key-accepted'));
  });
});
