import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudioLedger, type StudioLedger } from '../../main/core/studio/studio-ledger';
import { startTestPostgres, type TestPostgres } from '../helpers/pg-server';
import { auditScreen } from './a11y-support';
import { buildRenderer, confirmWithTerminalCode, launchChromium, startUi, type RunningUi } from './ui-support';

// Studio mode in the real app (`batchroom ui` in Chromium) against a real PostgreSQL: the ledger URL entered and
// tested in Settings, then the Studio panel on Hot folders showing another machine's instance, claim and budget.

let work: string;
let server: TestPostgres;
let browser: Browser;
let ui: RunningUi;
let page: Page;
let other: StudioLedger | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'batchroom-ui-studio-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  server = await startTestPostgres();
  browser = await launchChromium();
  ui = await startUi({ rendererDir, stateDir: join(work, 'state'), home: join(work, 'home'), env: { PGPASSWORD: server.password } });
  // bypassCSP: the page's CSP refuses inline scripts, and axe-core goes in as a script tag.
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light', bypassCSP: true });
  page = await context.newPage();
  await page.goto(ui.url);
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
});

afterAll(async () => {
  await other?.close();
  await browser?.close();
  await ui?.stop();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name });

describe('studio mode in the app', () => {
  it('saves and tests the ledger URL, then shows the studio as every machine sees it', async () => {
    await nav('Settings').click();
    const section = page.getByRole('region', { name: 'Shared studio ledger' });
    const field = section.getByRole('textbox', { name: 'Ledger URL' });
    await field.fill(server.url);
    await field.press('Enter');
    // The ledger gets the database password: main asks first, with a code printed on the terminal of `batchroom ui`.
    await confirmWithTerminalCode(page, ui);
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => section.getByLabel('Connection test').innerText()).toMatch(/^Connected: connected to PostgreSQL \d+/);

    // Another machine joins the studio and is working on a photo of the shared folder.
    other = await openStudioLedger({ url: server.url, instanceId: 'nas-instance', version: '9.9.9', label: 'NAS', env: { PGPASSWORD: server.password }, heartbeatMs: 3_600_000 });
    await other.setFolder('to-edit', 50);
    await other.claim({ key: 'k1', folderKey: 'to-edit', contentHash: 'h1', workflowId: 'color-grade', parametersHash: 'p', relPath: 'day1/IMG_0001.jpg', sourcePath: '/mnt/share/day1/IMG_0001.jpg', cost: 1 });

    await nav('Hot folders').click();
    const panel = page.getByRole('region', { name: 'Studio' });
    await expect.poll(() => panel.getByRole('table', { name: 'Instances' }).innerText(), { timeout: 10_000 }).toMatch(/NAS \(.+\)\s+9\.9\.9\s+Alive/);
    expect(await panel.getByRole('table', { name: 'Claims in flight' }).innerText()).toMatch(/to-edit\/day1\/IMG_0001\.jpg\s+Claimed\s+\S+/);
    expect(await panel.getByRole('table', { name: 'Shared budgets' }).innerText()).toMatch(/to-edit\s+1\s+50 \(49 left\)/);
    await page.screenshot({ path: join(process.cwd(), 'test-artifacts', 'screenshots', 'studio-panel-light.png') });
    // The studio screen meets the same bar as the others: axe in both themes, one <h1>, nothing cut off.
    const audit = await auditScreen(page, 'studio');
    process.stdout.write(`axe-core on studio: ${audit.axe.map((a) => `${a.theme} ${a.violations.map((v) => `${v.id}/${v.impact}×${v.nodes}`).join(', ') || 'none'}`).join('; ')}\n`);
    expect(audit.problems, audit.problems.join('\n')).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 860 });

    // The other machine stops: the next automatic read (every 5 s) shows it stopped, its claim waiting for a taker.
    await other.close();
    other = undefined;
    await expect.poll(() => panel.getByRole('table', { name: 'Instances' }).innerText(), { timeout: 15_000 }).toMatch(/Stopped/);
    expect(await panel.getByRole('table', { name: 'Claims in flight' }).innerText()).toMatch(/IMG_0001\.jpg\s+Claimed\s+\S+ \(stopped\)/);
  });
});
