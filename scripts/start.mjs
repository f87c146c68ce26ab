#!/usr/bin/env node
// `npm start`: make sure the Electron binary is there (fetching it with electron's own install script if it is
// not, unless ELECTRON_SKIP_BINARY_DOWNLOAD says not to), build the renderer, main and preload, then launch the app.
// Where Electron cannot be had (no network to its download host, an unsupported platform, downloads switched off),
// exit non-zero with one message — what happened and the two ways in without a window — and no raw stack.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INSTALL_TIMEOUT_MS = 180_000;

const HEADLESS_WAYS = `Everything else works without it:

  npx batchroom ui      the same app in your browser (a local, token-protected server)
  npx batchroom run     process a batch from the command line (npx batchroom --help for all commands)`;

/** Why there is no window, in words: `skipped` (downloads switched off) or the download's own one-line reason. */
export function noElectronMessage(why) {
  const what = why.kind === 'skipped'
    ? 'the Electron binary is not installed, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it was not downloaded.'
    : `the Electron binary is missing and could not be downloaded${why.reason ? ` (${why.reason})` : ''}.`;
  const retry = why.kind === 'skipped'
    ? 'To get the desktop app: unset ELECTRON_SKIP_BINARY_DOWNLOAD on a machine with internet access, then npm start'
    : 'To retry the desktop app later: node node_modules/electron/install.js && npm start';
  return `\nBatchroom could not open its desktop window: ${what}\n${HEADLESS_WAYS}\n\n${retry}\n`;
}

/** True when the variable asks not to download (any value but empty, 0 or false, as electron's installer reads it). */
export function downloadsSkipped(env = process.env) {
  const value = env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** The last meaningful line of a failed download (e.g. "getaddrinfo ENOTFOUND github.com"), never a stack. */
export function downloadFailureReason(output) {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('at ') && !/^[{}[\]]/.test(line));
  const named = lines.find((line) => /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|HTTPError|status code|certificate/i.test(line));
  const chosen = (named ?? lines.at(-1) ?? '').replace(/^(Error|RequestError|HTTPError):\s*/, '');
  return chosen.length > 160 ? `${chosen.slice(0, 157)}…` : chosen;
}

/**
 * The Electron executable if it is installed, else null. Read from electron's own `path.txt` rather than by
 * `require('electron')`: since electron 40 that require downloads a missing binary itself (ignoring
 * ELECTRON_SKIP_BINARY_DOWNLOAD and printing the raw stack of a failed download).
 */
export function electronBinary(requireFrom = createRequire(join(root, 'package.json')), env = process.env) {
  try {
    const dir = dirname(requireFrom.resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
    const binary = env.ELECTRON_OVERRIDE_DIST_PATH
      ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron')
      : relative ? join(dir, 'dist', relative) : null;
    return binary && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs electron's install script quietly: `{ ok: true }`, or `{ ok: false, reason }` with a one-line reason. */
export function installElectron({ timeoutMs = INSTALL_TIMEOUT_MS } = {}) {
  const script = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(script)) return { ok: false, reason: 'electron is not installed in node_modules' };
  console.log('start: the Electron binary is missing; fetching it with electron\'s install script…');
  const result = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8', stdio: 'pipe', timeout: timeoutMs });
  if (result.status === 0) return { ok: true };
  return { ok: false, reason: downloadFailureReason(`${result.stdout ?? ''}\n${result.stderr ?? ''}`) || 'the download timed out' };
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: ${[command, ...args].join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

async function main() {
  let binary = electronBinary();
  if (!binary && downloadsSkipped()) {
    console.error(noElectronMessage({ kind: 'skipped' }));
    process.exit(1);
  }
  if (!binary) {
    const installed = installElectron();
    if (installed.ok) binary = electronBinary(createRequire(join(root, 'package.json')));
    if (!binary) {
      console.error(noElectronMessage({ kind: 'failed', reason: installed.ok ? 'the installer left no binary' : installed.reason }));
      process.exit(1);
    }
  }
  run(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
  run(process.execPath, [join(root, 'scripts', 'build-electron.mjs')]);
  const child = spawn(binary, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
