// The app in the browser host: from launching `batchroom ui` (the host `npm start` runs without an Electron binary)
// to the workflow catalog visible in Chromium. The page (the window) exists before the launch, as Electron's would;
// the renderer is the production build (vite), served as the packaged app serves it. Started by test/e2e's own
// helpers (ui-support.ts): a real process in its own group, no keychain, sandbox mode.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRenderer, launchChromium, startUi } from '../test/e2e/ui-support';

export interface AppStart {
  /** launch → the host printed its URL (listening, core started), ms. */
  readyMs: number[];
  /** launch → the page loaded (its scripts run), ms. */
  loadedMs: number[];
  /** launch → the first workflow of the catalog visible, ms. */
  catalogMs: number[];
}

export async function measureAppStart({ runs = 3 } = {}): Promise<AppStart> {
  const work = await mkdtemp(join(tmpdir(), 'batchroom-app-start-'));
  const rendererDir = join(work, 'renderer');
  buildRenderer(rendererDir);
  const browser = await launchChromium();
  const result: AppStart = { readyMs: [], loadedMs: [], catalogMs: [] };
  try {
    // One unmeasured launch first: the disk cache, as on a machine where the app was opened before.
    for (let i = 0; i <= runs; i++) {
      const page = await browser.newPage();
      const started = performance.now();
      const host = await startUi({ rendererDir, stateDir: join(work, `state-${i}`), home: work });
      try {
        const ready = performance.now();
        await page.goto(host.url);
        const loaded = performance.now();
        await page.getByRole('list', { name: 'Workflows' }).getByRole('button').first().waitFor({ state: 'visible', timeout: 30_000 });
        const shown = performance.now();
        if (i > 0) {
          result.readyMs.push(ready - started);
          result.loadedMs.push(loaded - started);
          result.catalogMs.push(shown - started);
        }
      } finally {
        await page.close();
        await host.stop();
      }
    }
  } finally {
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
  return result;
}
