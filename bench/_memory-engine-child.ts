import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { relaunchWithMemoryProfile } from '../bin/memory-profile.mjs';
import { createEngine } from '../main/core/engine';
import { openJournal } from '../main/core/journal';
import { createServiceClient } from '../main/core/service';
import { statesOf } from '../shared/engine/item-states';
import type { BatchSummary } from '../shared/engine/model';
import type { MemorySample } from './_memory-samples';

// The engine alone in a process of its own under the hosts' memory profile, running one batch of the fixture's photos
// against a sandbox in another process (its memory is not the engine's). Prints one JSON line: the samples taken
// every second (items finished, RSS, heap), and the heap left after a full collection at N/4 and at the end — what
// the engine really keeps, without the garbage a sample may catch.
// argv: <photos folder> <count> <service url> <api key> <concurrency>

const [input, countText, url, apiKey, concurrencyText] = process.argv.slice(2) as [string, string, string, string, string];
const relaunched = await relaunchWithMemoryProfile();
if (relaunched !== null) process.exit(relaunched);

const N = Number(countText);
const TERMINAL = statesOf('terminal');
const gc = (globalThis as { gc?: () => void }).gc;
const retained = () => { gc?.(); gc?.(); return process.memoryUsage().heapUsed; };

const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-memory-engine-'));
const journal = openJournal(join(root, 'state'));
const client = createServiceClient({ baseUrl: url, apiKey });
const engine = createEngine({ journal, client, concurrency: Number(concurrencyText), requestsPerSecond: 5_000 });
try {
  await engine.start();
  // A host always listens (the app's window, the CLI's progress): the coalescer builds its events as in real use.
  // Progress is read from those events, as a host does: a getBatch() of our own 4 times a second built one more
  // summary of the whole batch each time (≈ 40 ms CPU per photo at 500 photos under load, not the engine's cost).
  let events = 0;
  let latest: BatchSummary | null = null;
  let batchId: string | null = null;
  engine.onProgress((event) => {
    events += 1;
    const mine = event.batches.find((b) => b.id === batchId);
    if (mine) latest = mine;
  });
  const startRss = process.memoryUsage().rss;
  const samples: MemorySample[] = [];
  let done = 0;
  const sample = () => { const m = process.memoryUsage(); samples.push({ done, rss: m.rss, heapUsed: m.heapUsed }); };
  const timer = setInterval(sample, 1_000);
  const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input], recursive: true }, output: { outputFolder: join(root, 'out') } };
  const estimateStarted = performance.now();
  await engine.estimate(spec);
  const estimateMs = performance.now() - estimateStarted;
  const started = performance.now();
  const { id } = await engine.createBatch(spec);
  batchId = id;
  let heapAtQuarter: number | null = null;
  for (let looks = 0; ; looks++) {
    // Our own look only every 10 s (an event may have been missed between two of them, or the last one not come).
    const batch: BatchSummary = looks % 40 === 39 || latest === null ? engine.getBatch(id) : latest;
    done = TERMINAL.reduce((sum, s) => sum + (batch.counts[s] ?? 0), 0);
    if (heapAtQuarter === null && done >= N / 4) heapAtQuarter = retained();
    if (batch.state === 'completed' && !engine.busy()) break;
    if (batch.state === 'paused') throw new Error(`batch paused: ${batch.pausedReason}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  sample();
  clearInterval(timer);
  const heapAtEnd = retained();
  // BENCH_MEMORY_HEAPSNAPSHOT=<dir>: what the engine still holds once the batch is done, for a heap-snapshot reader.
  if (process.env.BENCH_MEMORY_HEAPSNAPSHOT) writeHeapSnapshot(join(process.env.BENCH_MEMORY_HEAPSNAPSHOT, `engine-${N}.heapsnapshot`));
  const batch = engine.getBatch(id);
  process.stdout.write(`${JSON.stringify({
    startRss, samples, heapAtQuarter, heapAtEnd, saved: batch.counts.saved, total: batch.total, events,
    estimateMs: Math.round(estimateMs), runMs: Math.round(performance.now() - started),
  })}\n`);
} finally {
  await engine.stop({ graceful: false });
  journal.close();
  await rm(root, { recursive: true, force: true });
}
