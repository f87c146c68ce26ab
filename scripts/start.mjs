#!/usr/bin/env node
// `npm start`: make sure the Electron binary is there (fetching it with electron's own install script if it is
// not), build the renderer, main and preload, then launch the app. Where Electron cannot be had (no network to
// its download host, an unsupported platform), exit non-zero and say how to use Batchroom without it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INSTALL_TIMEOUT_MS = 180_000;

export const NO_ELECTRON_MESSAGE = `
Batchroom could not start its desktop window: the Electron binary is missing and could not be downloaded
(electron's install script failed; see the output above). Everything else works without it:

  npx batchroom ui      the same app in your browser (a local, token-protected server)
  npx batchroom run     process a batch from the command line (npx batchroom --help for all commands)

To retry the desktop app later: node node_modules/electron/install.js && npm start
`;

/** The Electron executable if it is installed, else null (electron's index.js throws when it is not). */
export function electronBinary(requireFrom = createRequire(join(root, 'package.json'))) {
  try {
    const resolved = requireFrom('electron');
    return typeof resolved === 'string' && existsSync(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

export function installElectron({ timeoutMs = INSTALL_TIMEOUT_MS } = {}) {
  const script = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(script)) return false;
  console.log('start: the Electron binary is missing; fetching it with electron\'s install script…');
  // The install script does nothing when ELECTRON_SKIP_BINARY_DOWNLOAD is set (as CI and .ci/run set it).
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [script], { cwd: root, env, stdio: 'inherit', timeout: timeoutMs });
  return result.status === 0;
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
  if (!binary && installElectron()) binary = electronBinary(createRequire(join(root, 'package.json')));
  if (!binary) {
    console.error(NO_ELECTRON_MESSAGE);
    process.exit(1);
  }
  run(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
  run(process.execPath, [join(root, 'scripts', 'build-electron.mjs')]);
  const child = spawn(binary, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
