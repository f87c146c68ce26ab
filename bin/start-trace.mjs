// The launcher's part of BATCHROOM_START_TRACE (main/core/start-trace.ts has the format and the reason): its own
// start, the relaunch under the memory profile, the bundle's freshness check. Plain JavaScript: bin/ runs before
// any bundle or TypeScript loader.

/** Writes `step` at `atMs` (default now, ms since the epoch) on stderr when BATCHROOM_START_TRACE=1. */
export function traceLauncher(step, atMs = performance.timeOrigin + performance.now()) {
  if (process.env.BATCHROOM_START_TRACE !== '1') return;
  process.stderr.write(`batchroom-trace ${step} ${atMs.toFixed(1)}\n`);
}
