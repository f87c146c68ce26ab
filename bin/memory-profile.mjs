// The memory profile every Node host of the engine runs under (the `batchroom` CLI and the browser host it starts,
// the engine bench's memory child). Two settings can only be made when a process starts:
//   - MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (libuv's pool, libvips' workers) its own arena and
//     keeps freed image buffers in it, so RSS grows with the thread count rather than with the images in flight;
//   - MALLOC_MMAP_THRESHOLD_=131072: every allocation of 128 KB or more (pixel rows, decoded images, file chunks)
//     gets its own mapping, given back to the system when freed. Left dynamic, glibc raises the threshold to the size
//     of the last large buffer freed (up to 32 MB), after which image buffers come from the arenas and their freed
//     space stays in RSS (1,000 × 24 MP: peak 194 → 179 MB; an mmap per image costs nothing next to a decode);
//   - --max-semi-space-size / --max-old-space-size: V8 otherwise lets tens of MB of dead upload strings (base64)
//     pile up before it collects them; 192 MB of old space is far above what the engine's state needs.
// A process started without them re-executes itself once with them (a marker stops a second time); the `batchroom`
// command cannot name them in its first line (bin/batchroom.mjs says why). That costs one more Node start-up, so only
// the commands that process images ask for it. Electron main does the same its own way
// (app.relaunch with --js-flags, main/electron/entry.ts); sharp's settings are made by the core (images/encode.ts).
import { spawn } from 'node:child_process';

export const MEMORY_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=192'];
/** glibc's settings (Linux only: other allocators ignore them). */
export const GLIBC_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export const MEMORY_ENV = process.platform === 'linux' ? GLIBC_MALLOC_ENV : {};
const MARKER = 'BATCHROOM_MEMORY_PROFILE';

/** True when this process already runs under the profile (or the user chose the settings themselves). */
export function hasMemoryProfile(env = process.env, execArgv = process.execArgv) {
  if (env[MARKER] === '1') return true;
  const flags = `${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
  const envDone = Object.keys(MEMORY_ENV).every((key) => env[key] !== undefined);
  return envDone && MEMORY_NODE_FLAGS.every((flag) => flags.includes(flag.split('=')[0]));
}

/**
 * Runs this same command again under the memory profile and resolves with its exit code, or resolves null when
 * this process already has it (the caller then goes on). Signals sent to this process are passed on; a Ctrl-C
 * from the terminal reaches both, and the CLI ignores a repeat within a second.
 */
export function relaunchWithMemoryProfile() {
  if (hasMemoryProfile()) return Promise.resolve(null);
  const args = [...MEMORY_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...MEMORY_ENV, [MARKER]: '1' } });
  const forward = (signal) => () => child.kill(signal);
  const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => [signal, forward(signal)]);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    child.on('error', () => resolve(null)); // cannot start a second Node: run here without the profile
    child.on('exit', (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      if (signal) {
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 1);
    });
  });
}
