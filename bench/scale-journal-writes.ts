// Issue 34 item 3, its write part: "a write per state change stays ≤ 2 ms p95 at 100k rows". N = 100,000 × BENCH_SCALE
// items in one batch of a journal on disk (the state folder's disk, under /tmp), all but the last `timed` already
// finished; then the last `timed` photos are driven through the engine's own writes for a photo (bench/_journal-seed.ts
// saveSequence: encode, submit, accept, poll, complete, placement, save with its ledger entry), one transaction each,
// each write timed on the thread that makes it, in two ways alternating photo by photo in the same run:
//   full     — as before this change: the three writes money depends on (submit, accept, final name) committed with
//              synchronous=FULL, their fdatasync on the event loop;
//   deferred — as the engine makes them now: every write synchronous=NORMAL, then `await journal.whenDurable()`
//              (journal/durable-sync.ts: one fdatasync of the WAL off the thread, shared by whoever waits).
// The figure is what blocks the thread per write (p50/p95 over all writes, and the durable three apart); beside it
// the wait until durable (off the thread), a bare 4 KB write + fdatasync on the same disk, and the fsyncs per photo
// when 32 photos' submits wait together. Last line: one JSON object of metrics.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openJournal, type Journal } from '../main/core/journal';
import { createDurableSync } from '../main/core/journal/durable-sync';
import { bareFdatasyncs } from './_bench-util';
import { plannedBatch, saveSequence } from './_journal-seed';
import { BatchSpecSchema } from '../shared/engine/model';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const N = Math.max(200, Math.round(100_000 * SCALE));
const GOAL_WRITE_P95_MS = 2;
const ms = (ns: bigint) => Number(ns) / 1e6;
const pct = (values: number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (v: number) => Number(v.toFixed(3));
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const print = (line: string) => process.stdout.write(`${line}\n`);

/** The journal as the engine now writes to it: `durable` writes committed plainly (the caller then awaits whenDurable). */
function deferring(journal: Journal): Journal {
  return {
    ...journal,
    updateItem: (id, change, options = {}) => journal.updateItem(id, change, { ...options, durable: false }),
    recordAccepted: (itemId, executionId, credits, at, event) => journal.recordAccepted(itemId, executionId, credits, at, event, { sync: 'deferred' }),
  };
}

interface Timings { all: number[]; durable: number[]; untilDurable: number[] }
const timings = (): Timings => ({ all: [], durable: [], untilDurable: [] });


export async function writeFigures() {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-journal-writes-'));
  try {
    const timed = Math.min(400, Math.max(40, Math.round(N / 50)));
    const journal = openJournal(join(root, 'state'));
    const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
    const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [join(root, 'in')] }, output: { outputFolder: join(root, 'out') } });
    const seeded = plannedBatch(spec, workflow, 'bench-account', N, join(root, 'in'));
    // The finished part of the batch, as rows (one transaction): what the timed writes' indexes and pages sit among.
    const finished = seeded.items.slice(0, N - timed).map((item) => ({ ...item, state: 'saved' as const }));
    journal.createBatch(seeded.batch, [...finished, ...seeded.items.slice(N - timed)]);
    const now = () => new Date().toISOString();
    const full = timings();
    const deferred = timings();
    const plain = deferring(journal);
    for (const [k, item] of seeded.items.slice(N - timed).entries()) {
      const useDeferred = k % 2 === 1;
      const t = useDeferred ? deferred : full;
      for (const step of saveSequence(useDeferred ? plain : journal, seeded.batch, item, now)) {
        const t0 = process.hrtime.bigint();
        step.run();
        const took = ms(process.hrtime.bigint() - t0);
        t.all.push(took);
        if (!step.durable) continue;
        t.durable.push(took);
        if (useDeferred) {
          const w0 = process.hrtime.bigint();
          await journal.whenDurable();
          t.untilDurable.push(ms(process.hrtime.bigint() - w0));
        }
      }
    }
    // 32 submits in flight (C = 32) each awaiting its own durability: how many fdatasyncs they cost together.
    const shared = createDurableSync(journal.path);
    await Promise.all(Array.from({ length: 32 }, () => shared.whenDurable()));
    const syncsFor32 = shared.syncs();
    journal.close();
    const fsyncs = bareFdatasyncs(join(root, 'fsync-probe'), Math.max(20, deferred.untilDurable.length));
    return {
      items: N, timedPhotos: timed,
      fullWriteP50Ms: round(pct(full.all, 50)), fullWriteP95Ms: round(pct(full.all, 95)), fullDurableP95Ms: round(pct(full.durable, 95)),
      writeP50Ms: round(pct(deferred.all, 50)), writeP95Ms: round(pct(deferred.all, 95)), durableWriteP95Ms: round(pct(deferred.durable, 95)),
      untilDurableP50Ms: round(pct(deferred.untilDurable, 50)), untilDurableP95Ms: round(pct(deferred.untilDurable, 95)),
      bareFsyncP50Ms: round(pct(fsyncs, 50)), bareFsyncP95Ms: round(pct(fsyncs, 95)), syncsFor32Submits: syncsFor32,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  print(`scale-journal-writes: N = ${N} (BENCH_SCALE ${SCALE}); load ${load()}`);
  const f = await writeFigures();
  print(`write per state change on the thread at ${N} rows, as the engine writes now (durable ones: NORMAL + whenDurable off the thread): `
    + `p50 ${f.writeP50Ms} ms, p95 ${f.writeP95Ms} ms (goal ≤ ${GOAL_WRITE_P95_MS}) ${f.writeP95Ms <= GOAL_WRITE_P95_MS ? 'met' : 'MISSED'}; the three durable ones p95 ${f.durableWriteP95Ms} ms`);
  print(`  before (same run, alternate photos): the durable three with synchronous=FULL on the thread: all writes p50 ${f.fullWriteP50Ms} ms, p95 ${f.fullWriteP95Ms} ms; `
    + `durable p95 ${f.fullDurableP95Ms} ms`);
  print(`  until durable (awaited off the thread): p50 ${f.untilDurableP50Ms} ms, p95 ${f.untilDurableP95Ms} ms; a bare 4 KB write + fdatasync on this disk: `
    + `p50 ${f.bareFsyncP50Ms} ms, p95 ${f.bareFsyncP95Ms} ms; 32 submits waiting together cost ${f.syncsFor32Submits} fdatasync(s); ${f.timedPhotos} photos timed; load ${load()}`);
  print(JSON.stringify(f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
