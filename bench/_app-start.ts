// The app in the browser host: from launching `batchroom ui` (the host `npm start` runs without an Electron binary)
// to the workflow catalog visible in Chromium. The page (the window) exists before the launch, as Electron's would;
// the renderer is the production build (vite), served as the packaged app serves it. Started as test/e2e starts it
// (ui-support.ts, which needs vitest's __dirname): a real process in its own group, no keychain, sandbox mode.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface AppStart {
  /** launch → the host printed its URL (listening, core started), ms. */
  readyMs: number[];
  /** launch → the page loaded (its scripts run), ms. */
  loadedMs: number[];
  /** launch → the first workflow of the catalog visible, ms. */
  catalogMs: number[];
}

interface Host {
  url: string;
  stop(): Promise<void>;
}

function startHost(root: string, rendererDir: string, stateDir: string, home: string): Promise<Host> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_RUNTIME_DIR: home, BATCHROOM_RENDERER_DIR: rendererDir };
  for (const name of ['BATCHROOM_API_KEY', 'DISPLAY', 'DBUS_SESSION_BUS_ADDRESS']) delete env[name];
  const child = spawn(process.execPath, ['bin/batchroom.mjs', '--state-dir', stateDir, 'ui', '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try { process.kill(-child.pid!, 'SIGINT'); } catch { /* already gone */ }
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 8_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((ready, fail) => {
    createInterface({ input: child.stdout! }).once('line', (line) => {
      try {
        ready({ url: (JSON.parse(line) as { url: string }).url, stop });
      } catch {
        void stop();
        fail(new Error(`unexpected first line from batchroom ui: ${line}\n${stderr}`));
      }
    });
    child.once('exit', (code) => fail(new Error(`batchroom ui exited (${code}): ${stderr}`)));
  });
}

export async function measureAppStart(root: string, { runs = 3 } = {}): Promise<AppStart> {
  const work = await mkdtemp(join(tmpdir(), 'batchroom-app-start-'));
  const rendererDir = join(work, 'renderer');
  const vite = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', rendererDir, '--emptyOutDir', '--logLevel', 'error'], { cwd: root, encoding: 'utf8' });
  if (vite.status !== 0) throw new Error(`vite build failed: ${vite.stderr || vite.stdout}`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const result: AppStart = { readyMs: [], loadedMs: [], catalogMs: [] };
  try {
    // One unmeasured launch first: the disk cache, as on a machine where the app was opened before.
    for (let i = 0; i <= runs; i++) {
      const page = await browser.newPage();
      const started = performance.now();
      const host = await startHost(root, rendererDir, join(work, `state-${i}`), work);
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
