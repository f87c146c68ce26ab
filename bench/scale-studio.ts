// Issue 34, item 7: studio at scale. One PostgreSQL ledger seeded with a season (100k × BENCH_SCALE finished claim
// rows: three instances, four folders, a year), then three instances — three real processes, each its own ledger
// pool, as three machines — claim the same 10k × BENCH_SCALE photos in the same order (every 10th one the season
// already did). Prints claim latency p50/p95/p99 (goal p95 ≤ 20 ms), the per-photo ledger cost (claim, submitting,
// accepted, outcome), the EXPLAIN (ANALYZE, BUFFERS) plan of every query on the claim path and of the status and
// report reads (goal: no sequential scan of batchroom_claims where a photo or an instance is looked up), and the
// ledger's rows before and after the retention rule. The server flushes every commit to disk as a studio's would
// (BENCH_STUDIO_FSYNC=off: the tests' setting), and the disk's own 8 KB fdatasync is timed in the same run, beside
// the claims. BENCH_STUDIO_PATHS (default v7f,v7: schema 7's claim waiting for its WAL flush, as before, and as now;
// v6 or v4 for the older schemas' functions): the claim paths timed side by side. Last line: one JSON object.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { migrateLedger } from '../main/core/studio/pg-migrations';
import { runRetention } from '../main/core/studio/pg-retention';
import { startTestPostgres, type TestPostgres } from '../test/helpers/pg-server';
import { seedSeason } from '../test/helpers/studio-seed';
import { explainLedger } from '../test/helpers/studio-plans';
import { photoKeys, type PathResult } from './_scale-studio-instance';
import { installV6Functions } from './_studio-v6-claims';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const FSYNC = process.env.BENCH_STUDIO_FSYNC !== 'off';
const PATHS = (process.env.BENCH_STUDIO_PATHS ?? 'v7f,v7').split(',');
const NEW = 'v7';
const OLD = PATHS.find((p) => p !== NEW) ?? 'v6';
const PATH_NAMES: Record<string, string> = {
  v4: 'schema 4, a transaction of 6 round trips', v6: 'schema 6, one statement updating the folder row',
  v7f: 'schema 7, each claim waiting for its WAL flush (before)',
  v7: 'schema 7, one statement, spend rows per connection, the claim\'s commit not waiting for the flush',
};
export const seasonRows = (scale: number) => Math.max(2_000, Math.round(100_000 * scale));
export const photoCount = (scale: number) => Math.max(60, Math.round(10_000 * scale));
const GOAL_P95_MS = 20;
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const r2 = (x: number) => Number(x.toFixed(2));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface InstanceResult { instance: string; results: Record<string, PathResult> }

async function connect(server: TestPostgres): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  return client;
}

function startInstance(server: TestPostgres, id: string, photos: number, rows: number): { child: ChildProcess; ready: Promise<void>; result: Promise<InstanceResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '_scale-studio-instance.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_INSTANCE: id, BENCH_PATHS: PATHS.join(','), BENCH_PHOTOS: String(photos), BENCH_SEASON_ROWS: String(rows), BENCH_LEDGER_URL: server.url, PGPASSWORD: server.password },
  });
  const lines = createInterface({ input: child.stdout! });
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => { resolveReady = resolve; });
  const result = new Promise<InstanceResult>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') resolveReady();
      else if (line.startsWith('{')) resolve(JSON.parse(line) as InstanceResult);
    });
    child.once('exit', (code) => reject(new Error(`instance ${id} exited (${code}) without a result`)));
  });
  return { child, ready, result };
}

/**
 * The disk's own flush, timed while the claims run (the same load): an 8 KB write and fdatasync every 50 ms in a
 * temp file on the file system of the server's data dir. No commit that must reach the disk can be faster.
 */
function sampleFsync(): { stop: () => number[] } {
  const dir = mkdtempSync(join(tmpdir(), 'br-fsync-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const page = Buffer.alloc(8192, 7);
  const samples: number[] = [];
  let n = 0;
  const timer = setInterval(() => {
    writeSync(fd, page, 0, page.length, (n++ % 16) * page.length);
    const t0 = performance.now();
    fdatasyncSync(fd);
    samples.push(performance.now() - t0);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
      return samples.sort((a, b) => a - b);
    },
  };
}

async function claimRound(server: TestPostgres, photos: number, rows: number, metrics: Record<string, number>): Promise<InstanceResult[]> {
  const instances = ['inst-0', 'inst-1', 'inst-2'].map((id) => startInstance(server, id, photos, rows));
  // For the bench's test: these processes (and the server on pgPort) must be gone when the bench has ended.
  instances.forEach((i, n) => { metrics[`instancePid${n}`] = i.child.pid ?? 0; });
  try {
    await Promise.all(instances.map((i) => i.ready));
    const fsync = sampleFsync();
    for (const i of instances) i.child.stdin!.write('go\n');
    try {
      return await Promise.all(instances.map((i) => i.result));
    } finally {
      const flushes = fsync.stop();
      Object.assign(metrics, { fsyncSamples: flushes.length, fsyncP50Ms: r2(pct(flushes, 0.5)), fsyncP95Ms: r2(pct(flushes, 0.95)), fsyncP99Ms: r2(pct(flushes, 0.99)) });
    }
  } finally {
    for (const i of instances) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
  }
}

/** The ledger's size, then the retention rule run once for real (as the daily run would), paid rows counted around it. */
async function retentionRound(server: TestPostgres, admin: pg.Client, metrics: Record<string, number>): Promise<void> {
  const count = async () => Number((await admin.query('SELECT count(*) AS n FROM batchroom_claims')).rows[0].n);
  const paidKeys = async () => Number((await admin.query(`SELECT count(*) AS n FROM batchroom_claims
    WHERE state IN ('saved', 'skipped', 'charged-no-result', 'unknown', 'cancelled') OR credits_charged <> 0`)).rows[0].n);
  const bytes = Number((await admin.query(`SELECT pg_total_relation_size('batchroom_claims') AS b`)).rows[0].b);
  metrics.rowsBefore = await count();
  metrics.bytesPerRow = Math.round(bytes / metrics.rowsBefore);
  const paidBefore = await paidKeys();
  const pool = new pg.Pool({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom', max: 1 });
  const t0 = performance.now();
  const retained = await runRetention(pool, { everyMs: 0 }).finally(() => pool.end());
  const retentionS = (performance.now() - t0) / 1000;
  metrics.rowsAfterRetention = await count();
  metrics.retentionRemoved = retained.removed;
  const paidKept = (await paidKeys()) === paidBefore;
  log(`ledger rows: ${metrics.rowsBefore} (${metrics.bytesPerRow} B a row with its indexes); retention removed ${retained.removed} `
    + `(failed, never charged, finished > 90 days ago) in ${retentionS.toFixed(2)} s → ${metrics.rowsAfterRetention} rows; `
    + `every paid/done row kept: ${paidKept ? 'yes' : 'NO'}; ${load()}`);
  if (!paidKept) throw new Error('retention removed a row that proves a payment');
}

function claimFigures(path: string, results: InstanceResult[], photos: number, rows: number): {
  p50: number; p95: number; p99: number; life95: number; wonOnce: boolean; won: number; claims: number; takenAfterClaim: number;
} {
  const of = results.map((r) => r.results[path]!);
  const claims = of.flatMap((r) => r.claimMs).sort((a, b) => a - b);
  const lifecycle = of.flatMap((r) => r.lifecycleMs).sort((a, b) => a - b);
  const won = of.flatMap((r) => r.won);
  const expected = new Set(photoKeys(photos, rows, path).filter((_, i) => i % 10 !== 0));
  const wonSet = new Set(won);
  const wonOnce = wonSet.size === won.length && [...expected].every((k) => wonSet.has(k));
  const takenAfterClaim = of.reduce((n, r) => n + (r.kinds.takenAfterClaim ?? 0), 0);
  // Won claims write (and flush) the ledger; 'done' and 'taken' answers need not (schema 7 answers them read-only).
  const byKind = (kinds: string[]) => of.flatMap((r) => kinds.flatMap((k) => r.msByKind[k] ?? [])).sort((a, b) => a - b);
  const [wonMs, readMs] = [byKind(['claimed']), byKind(['done', 'taken'])];
  log(`  ${path}: claims won p50 / p95 ${r2(pct(wonMs, 0.5))} / ${r2(pct(wonMs, 0.95))} ms (${wonMs.length}); answered done or taken`
    + ` p50 / p95 ${r2(pct(readMs, 0.5))} / ${r2(pct(readMs, 0.95))} ms (${readMs.length})`);
  log(`  ${path}: ${takenAfterClaim} live claims taken over as abandoned (goal 0) → ${verdict(takenAfterClaim === 0)}`);
  log(`  ${path}: verdicts ${results.map((r) => `${r.instance} ${JSON.stringify(r.results[path]!.kinds)}`).join('; ')}; every new photo won exactly once: ${wonOnce ? 'yes' : 'NO'}`);
  return { p50: r2(pct(claims, 0.5)), p95: r2(pct(claims, 0.95)), p99: r2(pct(claims, 0.99)), life95: r2(pct(lifecycle, 0.95)), wonOnce, won: won.length, claims: claims.length, takenAfterClaim };
}

async function main(): Promise<void> {
  const rows = seasonRows(SCALE);
  const photos = photoCount(SCALE);
  const metrics: Record<string, number> = { seasonRows: rows, photos };
  const server = await startTestPostgres({ fsync: FSYNC });
  metrics.pgPort = server.port;
  metrics.serverFsync = FSYNC ? 1 : 0;
  try {
    const admin = await connect(server);
    try {
      // The season is written at schema 6, as this studio's ledger was before schema 7, then migrated with it in.
      await migrateLedger(admin, 6);
      let t0 = performance.now();
      await seedSeason(admin, { rows });
      log(`seeded ${rows} season rows at schema 6 in ${((performance.now() - t0) / 1000).toFixed(1)} s (one INSERT … SELECT, then ANALYZE); ${load()}`);
      t0 = performance.now();
      const from = await migrateLedger(admin);
      metrics.migrateMs = Math.round(performance.now() - t0);
      log(`migrated the ledger from schema 6 to ${from} with ${rows} rows in it: ${metrics.migrateMs} ms; ${load()}`);
      await installV6Functions(admin);
      await retentionRound(server, admin, metrics);

      const plans = await explainLedger(server, rows);
      for (const line of plans) log(`  plan ${line.label}: ${line.scans.join(', ') || 'no scan'} — ${line.ms.toFixed(2)} ms${line.seqScanOnClaims ? '  ← Seq Scan on batchroom_claims' : ''}`);
      const pointLookups = plans.filter((p) => !p.label.startsWith('report, whole'));
      const seqScans = pointLookups.filter((p) => p.seqScanOnClaims);
      metrics.claimPathSeqScans = seqScans.length;
      log(`EXPLAIN: ${seqScans.length} of ${pointLookups.length} claim-path/status/report statements scan batchroom_claims sequentially (goal 0) → ${verdict(seqScans.length === 0)}`);

      t0 = performance.now();
      const results = await claimRound(server, photos, rows, metrics);
      log(`3 instances (3 processes, 4 connections each) × ${photos} photos × ${PATHS.length} claim paths (blocks of 50 alternating) at ${metrics.rowsAfterRetention} ledger rows: `
        + `${((performance.now() - t0) / 1000).toFixed(1)} s; server fsync ${FSYNC ? 'on (every commit flushed)' : 'OFF'}; ${load()}`);
      const old = claimFigures(OLD, results, photos, rows);
      const now = claimFigures(NEW, results, photos, rows);
      Object.assign(metrics, {
        claims: now.claims, claimsWon: now.won, claimP50Ms: now.p50, claimP95Ms: now.p95, claimP99Ms: now.p99, photoLedgerP95Ms: now.life95,
        oldClaimP50Ms: old.p50, oldClaimP95Ms: old.p95, oldClaimP99Ms: old.p99, oldPhotoLedgerP95Ms: old.life95, claimP95OverOld: r2(now.p95 / old.p95),
        takenAfterClaim: now.takenAfterClaim, oldTakenAfterClaim: old.takenAfterClaim,
      });
      log(`disk: 8 KB fdatasync while the claims ran (${metrics.fsyncSamples} samples): p50 ${metrics.fsyncP50Ms} ms, p95 ${metrics.fsyncP95Ms} ms, p99 ${metrics.fsyncP99Ms} ms`
        + ` — ${FSYNC ? 'a claim commits one WAL flush at least' : 'not paid by the claims: server fsync off'}`);
      log(`claim (${PATH_NAMES[NEW]}): p50 ${now.p50} ms, p95 ${now.p95} ms (goal ≤ ${GOAL_P95_MS} ms) → ${verdict(now.p95 <= GOAL_P95_MS)}, p99 ${now.p99} ms`);
      log(`claim (${PATH_NAMES[OLD] ?? OLD}), same run: p50 ${old.p50} ms, p95 ${old.p95} ms, p99 ${old.p99} ms → p95 ${NEW} / ${OLD} = ${metrics.claimP95OverOld}`);
      log(`  a won photo's ledger cost (claim + submitting + accepted + outcome), p95: ${NEW} ${now.life95} ms, ${OLD} ${old.life95} ms`);
      if (!old.wonOnce || !now.wonOnce) throw new Error('a photo was claimed by two instances, or by none');
    } finally {
      await admin.end();
    }
  } finally {
    await server.stop();
  }
  log(JSON.stringify(metrics));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
