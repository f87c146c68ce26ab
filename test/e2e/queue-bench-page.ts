import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { fileUnder, serveStatic, type StaticServer } from '../helpers/static-server';
import { launchChromium, ROOT } from './ui-support';

// The whole App fed by the scripted bridge (renderer/bench/queue-bench.html, renderer/bench/scripted-bridge.ts),
// built into a temp folder, served over HTTP and opened in Chromium: the page the Queue's scale tests drive.

export interface QueueBenchPage {
  page: Page;
  /** Closes the browser and the server and removes the build. */
  close(): Promise<void>;
}

/** `query`: the bench page's query string (items=…, mixed=1); resolves once the first rows are on screen. */
export async function openQueueBench(prefix: string, query: string): Promise<QueueBenchPage> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let server: StaticServer | null = null;
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: work, emptyOutDir: true, sourcemap: false, rollupOptions: { input: join(ROOT, 'renderer/bench/queue-bench.html') } },
    });
    server = await serveStatic((pathname) => fileUnder(work, pathname));
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.goto(`http://127.0.0.1:${server.port}/bench/queue-bench.html?${query}`);
    await page.locator('.item-row:not(.item-row-loading)').first().waitFor({ timeout: 120_000 });
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
