// Issue 34 item 3: the journal stays small and fast at 100k items. N = 100,000 × BENCH_SCALE (default 1).
//  size:     bytes on disk (journal.db + its -wal) per finished item, every item sent, accepted, polled, saved and
//            in the done ledger exactly as the engine journals it (bench/_journal-seed.ts); then after compaction.
//  writes:   each write of that sequence timed one transaction at a time, as the engine makes it, in a journal that
//            already holds N items: p95 of all writes, and of the ordinary and the durable (fsynced) ones apart.
//  recovery: a real `batchroom resume` running a batch of N items (half of them saved) against the sandbox in its own
//            process, SIGKILLed mid-batch, started again: from the new process's start to the first new execution
//            the sandbox accepts. Beside it: the same command on a batch of 1,000 items, in the same run.
// One line per figure with its goal, then one JSON line. BENCH_JOURNAL_ONLY=size|counts|recovery, BENCH_JOURNAL_RESTARTS (3).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import Database from 'libsql';
import { openJournal, type Journal } from '../main/core/journal';
import { createServiceClient } from '../main/core/service';
import { accountIdOf } from '../main/core/service/account-id';
import { specWithOutputFolder } from '../main/core/engine/output-folder';
import { spawnSandbox } from '../test/helpers/sandbox';
import { addExecutionRows, plannedBatch, saveSequence, type SeedSource } from './_journal-seed';
import { bareFdatasyncs, percentile } from './_bench-util';
import { countsBench } from './_journal-counts';
import { bareStarts, executionsCreated, killGroup, lostAtStart, pinnedCliEntry, startResume, traceMedians, untilNextExecution } from './_journal-restart';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const N = Math.max(200, Math.round(100_000 * SCALE));
const ONLY = process.env.BENCH_JOURNAL_ONLY ?? '';
/** Kill-and-restart rounds timed at N (and at 1,000 beside it). */
const RESTARTS = Math.max(1, Number(process.env.BENCH_JOURNAL_RESTARTS ?? '3'));
const FIXTURES = '/tmp/batchroom-scale-fixtures';

const GOAL_BYTES = 2048;
const GOAL_WRITE_P95_MS = 2;
const GOAL_RECOVERY_MS = 2000;

const now = () => new Date().toISOString();
const ms = (ns: bigint) => Number(ns) / 1e6;
const pct = percentile;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const load = () => loadavg()[0]!.toFixed(1);
const print = (line: string) => process.stdout.write(`${line}\n`);

/** journal.db + journal.db-wal, in bytes. */
export function journalBytes(path: string): number {
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
  return size(path) + size(`${path}-wal`);
}

/** Bytes per table and index (SQLite's dbstat), largest first. */
export function spaceByObject(path: string): { name: string; bytes: number }[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC`).all() as { name: string; bytes: number }[];
    return rows.map((r) => ({ name: String(r.name), bytes: Number(r.bytes) }));
  } finally {
    db.close();
  }
}

interface Service { url: string; apiKey: string }

async function specAndWorkflow(service: Service, inputRoot: string, outputFolder: string) {
  const client = createServiceClient({ baseUrl: service.url, apiKey: service.apiKey, timeoutMs: 10_000 });
  const spec = await specWithOutputFolder({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [inputRoot] }, output: { outputFolder } });
  const workflow = await client.getWorkflow('color-grade');
  return { spec, workflow, accountId: accountIdOf(client) };
}

/**
 * A journal holding one batch of `count` items; the first `finished` of them sent and saved, one write per
 * transaction as the engine makes them. Built in memory-backed /dev/shm (its fsyncs cost nothing: 300k of them on
 * disk would take an hour), then moved to `root` on disk, where it is measured.
 */
export async function seedJournal(service: Service, root: string, count: number, finished: number, source?: (i: number) => SeedSource | null) {
  const scratch = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'batchroom-seed-'));
  try {
    const { spec, workflow, accountId } = await specAndWorkflow(service, join(root, 'in'), join(root, 'out'));
    const seedJournal = openJournal(scratch);
    const seeded = plannedBatch(spec, workflow, accountId, count, join(root, 'in'), source);
    // One transaction (createBatch's `within`): the same writes, committed once. One per transaction, 10 writes a
    // photo, could not finish 50k photos under load.
    seedJournal.createBatch(seeded.batch, seeded.items, () => {
      for (const item of seeded.items.slice(0, finished)) for (const step of saveSequence(seedJournal, seeded.batch, item, now, true)) step.run();
    });
    seedJournal.close();
    const raw = new Database(join(scratch, 'journal.db'));
    addExecutionRows(raw, seeded.batch.id);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    const stateDir = join(root, 'state');
    await mkdir(stateDir, { recursive: true });
    await mkdir(join(root, 'out'), { recursive: true });
    // Whatever of it is still in the WAL goes along (a closed handle may not have checkpointed yet).
    for (const file of ['journal.db', 'journal.db-wal']) if (existsSync(join(scratch, file))) await copyFile(join(scratch, file), join(stateDir, file));
    return { journal: openJournal(stateDir), stateDir, seeded };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

// ---- size and write latency ---------------------------------------------------------------------------------------

export interface SizeFigures {
  items: number;
  bytesPerItem: number;
  writeP50Ms: number;
  writeP95Ms: number;
  ordinaryP95Ms: number;
  durableP95Ms: number;
  fsyncP95Ms: number;
  writes: number;
  compactedBytesPerItem: number | null;
  /** Items compaction removed, and the batch's saved count after it (N both: the counts stay). */
  itemsCompacted: number | null;
  savedAfter: number;
  largest: { name: string; bytes: number }[];
}

async function sizeAndWrites(service: Service): Promise<SizeFigures> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-journal-'));
  try {
    // The last `timed` items are sent one write per transaction, timed, once the journal holds all N.
    const timed = Math.min(1000, Math.max(50, Math.round(N / 20)));
    const { journal, seeded } = await seedJournal(service, root, N, N - timed);
    const all: number[] = [];
    const ordinary: number[] = [];
    const durable: number[] = [];
    for (const item of seeded.items.slice(N - timed)) {
      for (const step of saveSequence(journal, seeded.batch, item, now)) {
        const t0 = process.hrtime.bigint();
        step.run();
        const took = ms(process.hrtime.bigint() - t0);
        all.push(took);
        (step.durable ? durable : ordinary).push(took);
      }
    }
    journal.updateBatch(seeded.batch.id, { state: 'completed' });
    const bytes = journalBytes(journal.path);
    const largest = spaceByObject(journal.path).slice(0, 8);
    // The disk's own price of a durable write, in the same run: append 4 KB and fdatasync, as a WAL commit does.
    const fsyncs = bareFdatasyncs(join(root, 'fsync-probe'), Math.max(20, durable.length));
    // Compaction of the finished batch (every consumer has read its outcomes: the bench has none).
    const compacted = compactAll(journal);
    const counts = journal.countByState(seeded.batch.id);
    journal.close();
    return {
      items: N, bytesPerItem: bytes / N, writeP50Ms: pct(all, 50), writeP95Ms: pct(all, 95), ordinaryP95Ms: pct(ordinary, 95),
      durableP95Ms: pct(durable, 95), fsyncP95Ms: pct(fsyncs, 95), writes: all.length, largest,
      compactedBytesPerItem: compacted === null ? null : compacted.bytesAfter / N,
      itemsCompacted: compacted?.itemsRemoved ?? null, savedAfter: counts.saved ?? 0,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}


/** Compacts every finished batch: the journal's bytes after and the items removed (null: this build cannot compact). */
function compactAll(journal: Journal): { bytesAfter: number; itemsRemoved: number } | null {
  const compact = (journal as Partial<Pick<Journal, 'compact'>>).compact;
  if (!compact) return null;
  return compact({ finishedBefore: new Date(Date.now() + 60_000).toISOString() });
}

// ---- recovery after kill -9 ---------------------------------------------------------------------------------------

/** `count` distinct small JPEGs (a few pixels differ), cached across runs under /tmp/batchroom-scale-fixtures. */
export async function photoFixtures(count: number): Promise<SeedSource[]> {
  const dir = join(FIXTURES, `journal-photos-${count}`);
  const index = join(dir, 'index.json');
  if (existsSync(index)) return JSON.parse(readFileSync(index, 'utf8')) as SeedSource[];
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const sources: SeedSource[] = [];
  for (let i = 0; i < count; i++) {
    const pixels = Buffer.alloc(32 * 24 * 3, 90);
    pixels.writeUInt32BE(i, 0);
    pixels.writeUInt32BE(i * 2654435761 >>> 0, 40);
    const bytes = await sharp(pixels, { raw: { width: 32, height: 24, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    const path = join(dir, `photo-${String(i).padStart(5, '0')}.jpg`);
    await writeFile(path, bytes);
    sources.push({ path, contentHash: createHash('sha256').update(bytes).digest('hex') });
  }
  await writeFile(index, JSON.stringify(sources));
  return sources;
}

let cliEntry = '';

/** One timed restart: to the first new execution (null: none), submissions it found lost, its start trace. */
export interface RestartRun { ms: number | null; lost: number; trace: { step: string; ms: number }[] }

async function recoveryAfterKill(service: Service, count: number, restarts: number): Promise<RestartRun[]> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-recovery-'));
  try {
    const photos = await photoFixtures(400);
    const half = Math.floor(count / 2);
    // Saved: the first half. Then real photos (what the restarts send), then the rest of the batch.
    const { journal, stateDir } = await seedJournal(service, root, count, half, (i) => (i >= half && i - half < photos.length ? photos[i - half]! : null));
    journal.close();
    const out: RestartRun[] = [];
    // The first start runs until it has sent a few, then is killed; each restart is timed and killed the same way.
    for (let run = 0; run <= restarts; run++) {
      const before = await executionsCreated(service);
      const started = startResume(stateDir, service, cliEntry);
      const first = await untilNextExecution(service, started, before, 60_000);
      if (run > 0) out.push({ ms: first, lost: lostAtStart(started.output()), trace: started.trace() });
      // Mid-batch: a few more accepted, then kill -9.
      const target = (await executionsCreated(service)) + 3;
      const deadline = performance.now() + 10_000;
      while (performance.now() < deadline && (await executionsCreated(service)) < target && started.child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 20));
      }
      // Not at the very moment a submission was answered (its item is then still `submitting` in the journal, and
      // the restart would wait for balance evidence): a moment later, as a kill at a random time mostly lands.
      await new Promise((r) => setTimeout(r, 400));
      await killGroup(started);
    }
    return out;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

// ---- main ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  // One build of the CLI for the whole run (BENCH_CLI_ENTRY: one made earlier), so no timed start pays for a rebuild
  // when someone edits a source meanwhile.
  cliEntry = process.env.BENCH_CLI_ENTRY ?? await pinnedCliEntry();
  const sandbox = await spawnSandbox(['--duration-ms', '1500', '--credits', '100000000', '--rate-limit', '100000', '--max-concurrent', '64'], { timeoutMs: 120_000 });
  const metrics: Record<string, unknown> = { scale: SCALE, items: N, load: Number(load()) };
  try {
    if (ONLY === '' || ONLY === 'size') {
      const size = await sizeAndWrites(sandbox);
      print(`journal bytes per finished item, N=${N}: ${Math.round(size.bytesPerItem)} B (goal ≤ ${GOAL_BYTES}) ${verdict(size.bytesPerItem <= GOAL_BYTES)}`);
      const after = size.compactedBytesPerItem;
      print(`  after compaction: ${after === null ? 'n/a (no compaction in this build)' : `${Math.round(after)} B (goal ≤ ${GOAL_BYTES}) ${verdict(after <= GOAL_BYTES)}`}`);
      print(`  largest: ${size.largest.map((o) => `${o.name} ${(o.bytes / N).toFixed(0)} B/item`).join(', ')}`);
      print(`write per state change at ${N} rows: p50 ${size.writeP50Ms.toFixed(3)} ms, p95 ${size.writeP95Ms.toFixed(3)} ms (goal ≤ ${GOAL_WRITE_P95_MS}) ${verdict(size.writeP95Ms <= GOAL_WRITE_P95_MS)}; `
        + `ordinary p95 ${size.ordinaryP95Ms.toFixed(3)} ms, durable (fsync) p95 ${size.durableP95Ms.toFixed(3)} ms = ${(size.durableP95Ms / size.fsyncP95Ms).toFixed(2)}× `
        + `a bare 4 KB write + fdatasync on the same disk (p95 ${size.fsyncP95Ms.toFixed(3)} ms), ${size.writes} writes, load ${load()}`);
      Object.assign(metrics, {
        bytesPerItem: Math.round(size.bytesPerItem), writeP50Ms: size.writeP50Ms, writeP95Ms: size.writeP95Ms,
        ordinaryWriteP95Ms: size.ordinaryP95Ms, durableWriteP95Ms: size.durableP95Ms, bareFsyncP95Ms: size.fsyncP95Ms, writes: size.writes,
        compactedBytesPerItem: after === null ? null : Math.round(after), itemsCompacted: size.itemsCompacted, savedAfter: size.savedAfter,
      });
    }
    if (ONLY === '' || ONLY === 'counts') {
      const c = await countsBench(N);
      const filterMs = Math.max(c.failedFirstPageMs, c.failedLastPageMs);
      print(`batch summary at N=${N}: countByState ${c.countByStateMs.toFixed(2)} ms, whole summary ${c.summaryMs.toFixed(2)} ms; `
        + `"failed" (${c.failed}) page + count: first ${c.failedFirstPageMs.toFixed(2)} ms, last ${c.failedLastPageMs.toFixed(2)} ms (goal ≤ 100) ${verdict(filterMs <= 100)}; `
        + `"saved" last page ${c.savedLastPageMs.toFixed(2)} ms; load ${load()}`);
      const w = c.write;
      print(`state change write: ${w.withTriggers ? `with the counters' triggers p50 ${w.withTriggers.p50.toFixed(3)} p95 ${w.withTriggers.p95.toFixed(3)} ms, ` : 'no counters\' triggers in this build, '}`
        + `without p50 ${w.without.p50.toFixed(3)} p95 ${w.without.p95.toFixed(3)} ms (${w.writes} writes, alternating), load ${load()}`);
      Object.assign(metrics, {
        countByStateMs: c.countByStateMs, summaryMs: c.summaryMs, failedItems: c.failed, failedFirstPageMs: c.failedFirstPageMs,
        failedLastPageMs: c.failedLastPageMs, savedLastPageMs: c.savedLastPageMs, writeWithTriggers: w.withTriggers, writeWithoutTriggers: w.without,
        countTriggers: c.triggers.length,
      });
    }
    if (ONLY === '' || ONLY === 'recovery') {
      const restarts = await recoveryAfterKill(sandbox, N, RESTARTS);
      const small = await recoveryAfterKill(sandbox, Math.min(N, 1000), Math.min(2, RESTARTS));
      const floor = await bareStarts(cliEntry);
      const clean = restarts.filter((r) => r.lost === 0 && r.ms !== null).map((r) => r.ms!);
      const median = clean.length > 0 ? pct(clean, 50) : null;
      // Where the time went (BATCHROOM_START_TRACE, main/core/start-trace.ts): each step's median ms since the spawn;
      // restarts with lost submissions apart (their first submit waits for the balance's reads).
      const breakdown = traceMedians(restarts.filter((r) => r.lost === 0).map((r) => r.trace));
      const heldBreakdown = traceMedians(restarts.filter((r) => r.lost > 0).map((r) => r.trace));
      const runs = (list: RestartRun[]) => list.map(({ ms, lost }) => ({ ms, lost }));
      print(`kill -9 mid-batch, N=${N}: process start → first new execution accepted: ${restarts.map((r) => `${r.ms === null ? 'none' : Math.round(r.ms)} ms${r.lost ? ` (${r.lost} lost: held for balance evidence)` : ''}`).join(', ')}`
        + `; median without lost submissions ${median === null ? 'n/a' : Math.round(median)} ms (goal ≤ ${GOAL_RECOVERY_MS}) ${verdict(median !== null && median <= GOAL_RECOVERY_MS)}; `
        + `the same at N=1000: ${small.map((r) => `${r.ms === null ? 'none' : Math.round(r.ms)} ms${r.lost ? ` (${r.lost} lost)` : ''}`).join(', ')}; load ${load()}`);
      const steps = (list: { step: string; ms: number }[]) => (list.length > 0 ? list.map((s) => `${s.step} ${Math.round(s.ms)}`).join(', ') : 'n/a');
      print(`  where it went, ms since the spawn (median of ${clean.length}): ${steps(breakdown)}; with lost submissions: ${steps(heldBreakdown)}`);
      print(`  the floor in this run: a bare \`node -e 0\` ${Math.round(floor.nodeMs)} ms, two Node starts (the launcher's relaunch alone) ${Math.round(floor.twoStartsMs)} ms, `
        + `the CLI's \`--version\` (launcher + bundle) ${Math.round(floor.cliVersionMs)} ms, the bundle's freshness check ${floor.freshCheckMs.toFixed(1)} ms; load ${load()}`);
      Object.assign(metrics, {
        recoveryMs: median, recoveryRuns: runs(restarts), recoverySmallRuns: runs(small), recoveryTrace: breakdown, recoveryHeldTrace: heldBreakdown,
        bareNodeMs: floor.nodeMs, twoStartsMs: floor.twoStartsMs, cliVersionMs: floor.cliVersionMs, freshCheckMs: floor.freshCheckMs,
        restartsThatSent: [...restarts, ...small].filter((r) => r.ms !== null).length, restartsRun: restarts.length + small.length,
      });
    }
  } finally {
    await sandbox.kill();
  }
  print(JSON.stringify(metrics));
}

// Runnable as a script (`node --import tsx bench/scale-journal.ts`, `npm run bench scale-journal`).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
