// The `batchroom` command as bin/batchroom.mjs starts it (re-executed once under the memory profile), but always
// from the one build named in BENCH_CLI_ENTRY: bin/batchroom.mjs rebuilds when any source changed, and on a tree
// others are editing a timed restart would then include an esbuild run (bench/scale-journal.ts, recovery).
import { pathToFileURL } from 'node:url';
import { relaunchWithMemoryProfile } from '../bin/memory-profile.mjs';
import { traceLauncher } from '../bin/start-trace.mjs';

// The same trace steps as bin/batchroom.mjs (BATCHROOM_START_TRACE): the launcher's start, the worker's, the bundle.
if (process.env.BATCHROOM_MEMORY_PROFILE !== '1') traceLauncher('launcher', performance.timeOrigin);
const relaunched = await relaunchWithMemoryProfile();
if (relaunched !== null) {
  process.exitCode = relaunched;
} else {
  traceLauncher('worker', performance.timeOrigin);
  const { main } = await import(pathToFileURL(process.env.BENCH_CLI_ENTRY).href);
  traceLauncher('bundle-loaded');
  process.exitCode = await main(process.argv.slice(2));
}
