// The `batchroom` command as bin/batchroom.mjs starts it (re-executed once under the memory profile), but always
// from the one build named in BENCH_CLI_ENTRY: bin/batchroom.mjs rebuilds when any source changed, and on a tree
// others are editing a timed restart would then include an esbuild run (bench/scale-journal.ts, recovery).
import { pathToFileURL } from 'node:url';
import { relaunchWithMemoryProfile } from '../bin/memory-profile.mjs';

const relaunched = await relaunchWithMemoryProfile();
if (relaunched !== null) {
  process.exitCode = relaunched;
} else {
  const { main } = await import(pathToFileURL(process.env.BENCH_CLI_ENTRY).href);
  process.exitCode = await main(process.argv.slice(2));
}
