import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';

// Support for the UI end-to-end tests and the UI bench: a fresh renderer build, `batchroom ui` as a real process
// (optionally inside a private D-Bus session with gnome-keyring), Debian's Chromium, real photos and screenshots.

export const ROOT = resolve(import.meta.dirname, '../..');
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export { screenshot } from './screenshots';

/** Builds the renderer from the current sources into `outDir` (the tests never depend on a stale dist/). */
export function buildRenderer(outDir: string): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`vite build failed: ${result.stderr || result.stdout}`);
}

export interface RunningUi {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `batchroom [globalArgs] ui --json` and resolves with the URL from its first stdout line. With `keyring`
 * the command runs in its own D-Bus session with an unlocked gnome-keyring, as a desktop user would have.
 */
export function startUi(options: { rendererDir: string; stateDir: string; home: string; globalArgs?: string[]; env?: Record<string, string>; keyring?: boolean }): Promise<RunningUi> {
  // The command itself, as npm's link to it runs it: its first line starts Node under the memory profile.
  const cli = [join(ROOT, 'bin/batchroom.mjs'), '--state-dir', options.stateDir, ...(options.globalArgs ?? []), 'ui', '--json'];
  const env: Record<string, string | undefined> = { ...process.env, HOME: options.home, XDG_RUNTIME_DIR: options.home, BATCHROOM_RENDERER_DIR: options.rendererDir, ...options.env };
  delete env.BATCHROOM_API_KEY;
  delete env.DISPLAY;
  // Without `keyring` the host has no keychain, wherever the tests run (CI has no session bus; a developer's shell
  // may have one): screens that show the key's state look the same on every machine.
  if (!options.keyring) delete env.DBUS_SESSION_BUS_ADDRESS;
  if (options.env?.BATCHROOM_API_KEY) env.BATCHROOM_API_KEY = options.env.BATCHROOM_API_KEY;
  const quoted = cli.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = options.keyring
    ? spawn('dbus-run-session', ['--', 'sh', '-c', `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec ${quoted}`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(cli[0]!, cli.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Our own child's process group (dbus-run-session, its daemons and node): SIGINT first, as Ctrl-C would.
    try { process.kill(-child.pid!, 'SIGINT'); } catch { /* already gone */ }
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 8_000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((ready, fail) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => { void stop(); fail(new Error(`batchroom ui did not start: ${stderr}`)); }, 90_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        ready({ url: (JSON.parse(line) as { url: string }).url, child, stderr: () => stderr, stop });
      } catch {
        void stop();
        fail(new Error(`unexpected first line from batchroom ui: ${line}\n${stderr}`));
      }
    });
    child.once('exit', (code) => { clearTimeout(timer); fail(new Error(`batchroom ui exited (${code}): ${stderr}`)); });
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Real JPEGs with distinct colours and a gradient, so before/after differ visibly. */
// Every photo made in one test process differs: the done ledger recognises photos by content, so two identical
// photos in different journeys would be (rightly) skipped as already done.
let photosMade = 0;

export async function makePhotos(dir: string, count: number, prefix = 'IMG_'): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  for (let n = 0; n < count; n++) {
    const index = photosMade++;
    const hue = (index * 67) % 360;
    const cy = 100 + (Math.floor(index / 6) % 6) * 24;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
      <defs><linearGradient id="g" x1="0" x2="1" y1="0" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},60%,35%)"/></linearGradient></defs>
      <rect width="480" height="320" fill="url(#g)"/><circle cx="${160 + (index % 6) * 40}" cy="${cy}" r="80" fill="rgba(255,255,255,0.55)"/>
      <rect x="300" y="60" width="120" height="200" rx="16" fill="rgba(0,0,0,0.25)"/></svg>`;
    const path = join(dir, `${prefix}${String(n + 1).padStart(4, '0')}.jpg`);
    await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(path);
    paths.push(path);
  }
  return paths;
}

/** Drops real files on the window the way a desktop drag does: a DataTransfer carrying File objects. */
export async function dropFiles(page: Page, files: { name: string; base64: string }[]): Promise<void> {
  // A string, not a function: this file type-checks against Node's lib, the page runs it against the DOM.
  await page.evaluate(`(() => {
    const list = ${JSON.stringify(files)};
    const dataTransfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dataTransfer.items.add(new File([bytes], f.name, { type: 'image/jpeg' }));
    }
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
    }
  })()`);
}

/**
 * Answers main's confirmation of a new origin (issue 30 #1) as the person at the terminal would: waits for the prompt,
 * reads the newest code `batchroom ui` printed, types it in the page and waits for the prompt to close.
 */
export async function confirmWithTerminalCode(page: Page, ui: RunningUi): Promise<void> {
  const prompt = page.getByRole('alertdialog');
  await prompt.waitFor();
  const lastCode = () => [...ui.stderr().matchAll(/type this code in the page: (\d{4}) (\d{4})/g)].map((m) => `${m[1]}${m[2]}`).pop() ?? '';
  const deadline = Date.now() + 10_000;
  while (!/^\d{8}$/.test(lastCode())) {
    if (Date.now() > deadline) throw new Error(`no confirmation code on the terminal of batchroom ui: ${ui.stderr().slice(-500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await prompt.getByRole('textbox', { name: 'Type the code printed in the terminal that started Batchroom' }).fill(lastCode());
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await prompt.waitFor({ state: 'detached' });
}
